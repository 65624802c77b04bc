// A worker reads a heap record, then says it is done with it through a
// flag; main waits for the flag and frees the record.
// Default: the flag is a release store and main's wait an acquire load:
// the worker's reads happen before the free. PASS everywhere.
// -DRLX: both are relaxed. Nothing orders the worker's reads before the
// free: a use after free at the worker's read (line 39) under rc11 and
// imm (no happens-before), aarch64, riscv and power (a read may be
// satisfied after a later store in program order is seen by another
// thread: load buffering); sc and x86-TSO keep a read before a later
// store, so PASS there. Natively on x86 ASan never sees it.
// -DBUG: the worker signals before it reads: a use after free under
// every model (ASan: heap-use-after-free when main frees first).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifdef RLX
#define REL memory_order_relaxed
#define ACQ memory_order_relaxed
#else
#define REL memory_order_release
#define ACQ memory_order_acquire
#endif

struct rec {
  int a, b;
};

static struct rec *shared;
static atomic_int done;
static int seen;

static void *worker(void *arg) {
  (void)arg;
#ifdef BUG
  atomic_store_explicit(&done, 1, REL);
#endif
  seen = shared->a + shared->b;
#ifndef BUG
  atomic_store_explicit(&done, 1, REL);
#endif
  return NULL;
}

int main(void) {
  struct rec *r = malloc(sizeof *r);
  r->a = 3;
  r->b = 4;
  shared = r;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  while (atomic_load_explicit(&done, ACQ) == 0)
    ;
  free(r);
  pthread_join(t, NULL);
  assert(seen == 7);
  return 0;
}
