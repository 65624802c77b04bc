// SV-COMP's fmaxsym shape: symmetric threads scan their slice of an
// array and publish the largest value into a shared maximum with a
// compare-and-swap loop; main checks the maximum after the joins.
// Default: PASS everywhere. -D BUG: the publication is a load then a
// plain store (check-then-act): the other thread's larger value may be
// overwritten (FAIL everywhere; relaxed atomics, no race).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 4
static int data[N] = {3, 9, 4, 7};
static atomic_int best;

static void *scan(void *arg) {
  long k = (long)arg;
  int m = 0;
  for (int i = (int)k * (N / 2); i < (int)(k + 1) * (N / 2); i++)
    if (data[i] > m)
      m = data[i];
#ifdef BUG
  if (atomic_load_explicit(&best, memory_order_relaxed) < m)
    atomic_store_explicit(&best, m, memory_order_relaxed);
#else
  int cur = atomic_load(&best);
  while (cur < m && !atomic_compare_exchange_weak(&best, &cur, m))
    ;
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, scan, (void *)0L);
  pthread_create(&b, 0, scan, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(best == 9);
  return 0;
}
