// The Eisenberg-McGuire mutual exclusion algorithm for two processes,
// on sequentially consistent atomics; the critical section checks that
// it is alone. Default: PASS everywhere. -D BUG: the flags are written
// and read relaxed: both may enter (FAIL under rc11/imm/x86/aarch64/
// power/riscv; sc: PASS). x86 lets a store be passed by a later load
// (store buffering), which is all the algorithm needs to fail.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define MO memory_order_relaxed
#else
#define MO memory_order_seq_cst
#endif
enum { IDLE, WAITING, ACTIVE };
static atomic_int flags[2];
static atomic_int turn;
static atomic_int inside;

static void *proc(void *arg) {
  int i = (int)(long)arg, j;
  for (;;) {
    atomic_store_explicit(&flags[i], WAITING, MO);
    j = atomic_load_explicit(&turn, MO);
    while (j != i) {
      if (atomic_load_explicit(&flags[j], MO) != IDLE)
        j = atomic_load_explicit(&turn, MO);
      else
        j = (j + 1) % 2;
    }
    atomic_store_explicit(&flags[i], ACTIVE, MO);
    j = 0;
    while (j < 2 && (j == i || atomic_load_explicit(&flags[j], MO) != ACTIVE))
      j++;
    if (j >= 2 && (atomic_load_explicit(&turn, MO) == i || atomic_load_explicit(&flags[atomic_load_explicit(&turn, MO)], MO) == IDLE))
      break;
  }
  atomic_store_explicit(&turn, i, MO);
  assert(atomic_fetch_add(&inside, 1) == 0);
  atomic_fetch_sub(&inside, 1);
  j = (atomic_load_explicit(&turn, MO) + 1) % 2;
  while (atomic_load_explicit(&flags[j], MO) == IDLE && j != i)
    j = (j + 1) % 2;
  atomic_store_explicit(&turn, j, MO);
  atomic_store_explicit(&flags[i], IDLE, MO);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, proc, (void *)0L);
  pthread_create(&b, 0, proc, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
