// The number of workers and their increments come from strings parsed
// with atoi and atol (glibc's strtol; "+2", " 3"); each worker adds its
// increment to an atomic total. Default: PASS everywhere. -D BUG: main
// asserts the total before joining: FAIL everywhere (no race: atomics).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

static char nthreads[4] = "+2";
static char step[4] = " 3";
static atomic_long total;
static long inc;

static void *worker(void *arg) {
  (void)arg;
  atomic_fetch_add(&total, inc);
  return 0;
}

int main(void) {
  int n = atoi(nthreads);
  inc = atol(step);
  assert(n == 2 && inc == 3);
  pthread_t t[2];
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], 0, worker, 0);
#ifdef BUG
  assert(total == 6);
#endif
  for (int i = 0; i < n; i++)
    pthread_join(t[i], 0);
  assert(total == 6);
  return 0;
}
