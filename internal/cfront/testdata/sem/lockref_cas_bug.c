// Linux's lockref: a 64-bit word {lock, count}. One thread takes
// references by a compare-and-swap of the whole word while the lock is
// free (the fast path of lockref_get), else under the lock; the other
// holds the lock and bumps the count by halves (the lock half taken by a
// 32-bit compare-and-swap, the count half written, the lock half
// released), as code holding the lock does. main checks that no
// reference was lost. The bug: the second thread bumps the count without
// the lock, so the first one's compare-and-swap can succeed between its
// read and its write of the count, and a reference is lost (an
// interleaving: no weak behaviour is needed). REPS > 1 repeats them and WIDEN
// makes the count's update slower, for native stress runs.
#include <assert.h>
#include <pthread.h>

#ifndef REPS
#define REPS 1
#endif

union lockref {
  long whole;
  struct {
    int lock;
    int count;
  };
} lr = {.count = 3};

static void lock(void) {
  int unlocked = 0;
  while (!__atomic_compare_exchange_n(&lr.lock, &unlocked, 1, 0,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    unlocked = 0;
}

static void unlock(void) { __atomic_store_n(&lr.lock, 0, __ATOMIC_RELEASE); }

static void bump(void) {
  int c = __atomic_load_n(&lr.count, __ATOMIC_RELAXED);
#ifdef WIDEN // native stress runs: a longer time between the read and the write
  for (volatile int k = 0; k < WIDEN; k++)
    ;
#endif
  __atomic_store_n(&lr.count, c + 1, __ATOMIC_RELAXED);
}

void *fast(void *p) {
  for (int i = 0; i < REPS; i++) {
    union lockref old, new;
    old.whole = __atomic_load_n(&lr.whole, __ATOMIC_RELAXED);
    if (old.lock == 0) { // the fast path, only while the lock is free
      new.whole = old.whole;
      new.count++;
      if (__atomic_compare_exchange_n(&lr.whole, &old.whole, new.whole, 0,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        continue;
    }
    lock();
    bump();
    unlock();
  }
  return 0;
}

void *locked(void *p) {
  for (int i = 0; i < REPS; i++) {
    bump(); // BUG: without the lock
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, fast, 0);
  pthread_create(&b, 0, locked, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  long v = __atomic_load_n(&lr.whole, __ATOMIC_RELAXED);
  assert(v == (long)(3 + 2 * REPS) << 32);
  return 0;
}
