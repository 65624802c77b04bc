// Recursion with a bound: each worker computes a binomial coefficient by
// Pascal's recursion, C(4, id+1), and adds it to a shared atomic total;
// main checks C(4,1) + C(4,2) = 10. Default: PASS everywhere (needs
// -bound 6 or so: the recursion is unrolled). -D BUG: the recursion's
// base case returns 0 for k == n: FAIL everywhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int total;

static int binom(int n, int k) {
  if (k == 0)
    return 1;
  if (k == n)
#ifdef BUG
    return 0;
#else
    return 1;
#endif
  return binom(n - 1, k - 1) + binom(n - 1, k);
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  atomic_fetch_add_explicit(&total, binom(4, id + 1), memory_order_relaxed);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(atomic_load(&total) == 10);
  return 0;
}
