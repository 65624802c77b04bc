// A worker mallocs a record, fills it and publishes it with a release
// store; main reads it after an acquire load and checks it.
// Default: every field is written before the publication. PASS.
// -DBUG: the worker forgets the second field: main reads memory malloc
// left indeterminate (C11 7.22.3.4; GenMC: "attempt to read from
// uninitialized memory"). FAIL "read of uninitialised heap memory" at
// main's read, under every model.
// -DRLX: all fields written, but the publication is relaxed: under rc11,
// imm, ARMv8 and RISC-V main may see the pointer before the fields'
// writes, and read what malloc left (FAIL); sc and x86 keep the writes
// before the publication (PASS). (The fields are written and read with
// relaxed atomics: no data race.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifdef RLX
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

struct rec {
  int key;
  int val;
};

static struct rec *_Atomic shared;
static int seen;

static void *maker(void *arg) {
  (void)arg;
  struct rec *r = malloc(sizeof *r);
  atomic_store_explicit((_Atomic int *)&r->key, 1, memory_order_relaxed);
#ifndef BUG
  atomic_store_explicit((_Atomic int *)&r->val, 10, memory_order_relaxed);
#endif
  atomic_store_explicit(&shared, r, PUB);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, maker, NULL);
  struct rec *r;
  while ((r = atomic_load_explicit(&shared, memory_order_acquire)) == NULL)
    ;
  int k = atomic_load_explicit((_Atomic int *)&r->key, memory_order_relaxed);
  int v = atomic_load_explicit((_Atomic int *)&r->val, memory_order_relaxed);
  pthread_join(t, NULL);
  seen = v;
  assert(k == 1);
#ifndef KEEP // -DKEEP: no free, so the SMT engine answers power too
  free(r);
#endif
  return 0;
}
