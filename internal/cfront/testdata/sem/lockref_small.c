// A lockref-style word {lock, count}, small enough for the explicit
// engine: one thread bumps the count by one compare-and-swap of the whole
// word, ignoring the lock (the bug); the other takes the lock half by a
// 32-bit compare-and-swap, bumps the count half and releases the lock.
// When both succeed, the fast compare-and-swap can come between the lock
// holder's read and write of the count, and a reference is lost (an
// interleaving, no weak behaviour).
#include <assert.h>
#include <pthread.h>

union lockref {
  long whole;
  struct {
    int lock;
    int count;
  };
} lr = {.count = 3};
int fast_ok, locked_ok;

void *fast(void *p) {
  long old = __atomic_load_n(&lr.whole, __ATOMIC_RELAXED);
  fast_ok = __atomic_compare_exchange_n(&lr.whole, &old, old + (1L << 32), 0,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return 0;
}

void *locked(void *p) {
  int unlocked = 0;
  if (!__atomic_compare_exchange_n(&lr.lock, &unlocked, 1, 0,
                                   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return 0;
  int c = __atomic_load_n(&lr.count, __ATOMIC_RELAXED);
  __atomic_store_n(&lr.count, c + 1, __ATOMIC_RELAXED);
  __atomic_store_n(&lr.lock, 0, __ATOMIC_RELEASE);
  locked_ok = 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, fast, 0);
  pthread_create(&b, 0, locked, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  long v = __atomic_load_n(&lr.whole, __ATOMIC_RELAXED);
  if (fast_ok && locked_ok)
    assert(v == 5L << 32);
  return 0;
}
