// atomic_compare_exchange_weak may fail spuriously (C11 7.17.7.4): a
// correct program retries it in a loop. Two workers add to a counter
// with a weak-CAS loop. Default: PASS everywhere. -D BUG: a worker
// tries once and asserts it succeeded when it read the expected value
// (as GenMC's weak-cas-assume-strong test shows, treating weak as strong
// hides bugs): FAIL under the C models (rc11, imm, sc) and on the
// targets whose CAS is a load/store-exclusive pair (aarch64, power,
// riscv); x86's lock cmpxchg never fails spuriously: PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int counter;

static void *worker(void *arg) {
  (void)arg;
#ifdef BUG
  int e = atomic_load_explicit(&counter, memory_order_relaxed);
  if (e == 0) {
    int ok = atomic_compare_exchange_weak_explicit(&counter, &e, e + 1, memory_order_relaxed, memory_order_relaxed);
    assert(ok || e != 0);
    return 0;
  }
#endif
  int old = atomic_load_explicit(&counter, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(&counter, &old, old + 1, memory_order_relaxed, memory_order_relaxed))
    ;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
#ifndef BUG
  assert(atomic_load(&counter) == 2);
#endif
  return 0;
}
