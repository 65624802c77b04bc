// Dekker's entry protocol with relaxed flags and seq_cst fences, in its
// try-lock form (no back-off loop): a thread sets its flag, fences, and
// enters only if the other's flag is still clear; at most one enters.
// PASS everywhere. -DBUG: the fences are release fences (they order
// nothing between a store and a later load): both can enter; FAIL at
// line 31 under rc11, imm, x86, aarch64, power, riscv; PASS under sc.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef BUG
#define FENCE memory_order_release
#else
#define FENCE memory_order_seq_cst
#endif
atomic_int flag0, flag1, inside;
void *t0(void *a) {
  atomic_store_explicit(&flag0, 1, memory_order_relaxed);
  atomic_thread_fence(FENCE);
  if (atomic_load_explicit(&flag1, memory_order_relaxed) == 0)
    atomic_fetch_add_explicit(&inside, 1, memory_order_relaxed);
  return NULL;
}
void *t1(void *a) {
  atomic_store_explicit(&flag1, 1, memory_order_relaxed);
  atomic_thread_fence(FENCE);
  if (atomic_load_explicit(&flag0, memory_order_relaxed) == 0)
    atomic_fetch_add_explicit(&inside, 1, memory_order_relaxed);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, t0, NULL);
  pthread_create(&b, NULL, t1, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(atomic_load(&inside) <= 1);
  return 0;
}
