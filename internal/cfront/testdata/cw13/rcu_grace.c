// RCU-like publication and reclamation: a reader announces itself in an
// "active" flag, loads the current configuration pointer and reads it;
// the updater swaps in a new configuration, waits until the reader is
// not active, and frees the old one. The announcement and the updater's
// check form a store-buffering pair: both sides must be seq_cst.
// Default: PASS under every model.
// -D BUG: the reader announces with a release store: in C11 its later
// seq_cst load may be ordered before the announcement (SB), so the
// updater can see it inactive and free the configuration the reader
// still reads: FAIL "use after free" under rc11 and imm, and on x86
// (a release store and a seq_cst load are plain MOVs: the store waits
// in the buffer). sc PASS, and aarch64, power and riscv PASS as clang-14
// compiles them: STLR then LDAR stay ordered on ARMv8, and a seq_cst
// load starts with a full fence (sync, fence rw,rw) on Power and RISC-V.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifdef BUG
#define ANN memory_order_release
#else
#define ANN memory_order_seq_cst
#endif

struct conf {
  int limit;
};

static _Atomic(struct conf *) cur;
static atomic_int active;

static void *reader(void *a) {
  (void)a;
  atomic_store_explicit(&active, 1, ANN);
  struct conf *c = atomic_load_explicit(&cur, memory_order_seq_cst);
  assert(c->limit > 0);
  atomic_store_explicit(&active, 0, memory_order_release);
  return 0;
}

int main(void) {
  struct conf *c0 = malloc(sizeof *c0);
  c0->limit = 1;
  atomic_store(&cur, c0);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  struct conf *c1 = malloc(sizeof *c1);
  c1->limit = 2;
  struct conf *old = atomic_exchange_explicit(&cur, c1, memory_order_seq_cst);
  while (atomic_load_explicit(&active, memory_order_seq_cst))
    ;
  free(old);
  pthread_join(t, 0);
  free(c1);
  return 0;
}
