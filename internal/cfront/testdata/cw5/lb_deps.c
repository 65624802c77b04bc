// GenMC-style litmus in C: load buffering with relaxed atomics. Thread 1
// copies what it reads from x into y (a data dependency); thread 2 reads
// y and then writes x = 1, with no dependency. Both reads seeing 1 is a
// cycle po;rf;po;rf: forbidden under rc11 (po ∪ rf acyclic), sc and x86
// (PASS), allowed under imm and aarch64, which order a dependent store
// but not an independent one (FAIL).
// -DCTRL: thread 2 writes x only when it read something other than 7 (a
// control dependency): imm and aarch64 keep a read-to-write control
// dependency, so PASS everywhere.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
atomic_int x, y;
int r1, r2;
void *t1(void *arg) {
  r1 = atomic_load_explicit(&x, memory_order_relaxed);
  atomic_store_explicit(&y, r1, memory_order_relaxed);
  return arg;
}
void *t2(void *arg) {
  r2 = atomic_load_explicit(&y, memory_order_relaxed);
#ifdef CTRL
  if (r2 != 7)
#endif
    atomic_store_explicit(&x, 1, memory_order_relaxed);
  return arg;
}
int main() {
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(!(r1 == 1 && r2 == 1));
  return 0;
}
