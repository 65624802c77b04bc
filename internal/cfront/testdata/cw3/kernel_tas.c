// A kernel-style test-and-set lock, `while (xchg_acquire(&lk, 1))` (or,
// with -DCMPX, `while (cmpxchg_acquire(&lk, 0, 1) != 0)`), released with
// smp_store_release, protecting a counter. Was BOUND at every -bound: the
// kernel exchange in the wait loop kept it from being cut as a spin loop
// (its C11 form was cut). Under the LKMM: PASS; -DBUG (relaxed exchange,
// WRITE_ONCE release): FAIL at line 44 (the second holder may read the
// counter before the first holder's increment).
#include <musket/lkmm.h>
#include <pthread.h>
#include <assert.h>

#ifdef BUG
#define XCHG xchg_relaxed
#define CMPXCHG cmpxchg_relaxed
#define RELEASE(p, v) WRITE_ONCE(*(p), v)
#else
#define XCHG xchg_acquire
#define CMPXCHG cmpxchg_acquire
#define RELEASE(p, v) smp_store_release(p, v)
#endif

int lk, shared;

void *t(void *arg) {
  (void)arg;
#ifdef CMPX
  while (CMPXCHG(&lk, 0, 1) != 0)
    cpu_relax();
#else
  while (XCHG(&lk, 1))
    cpu_relax();
#endif
  WRITE_ONCE(shared, READ_ONCE(shared) + 1);
  RELEASE(&lk, 0);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(READ_ONCE(shared) == 2);
  return 0;
}
