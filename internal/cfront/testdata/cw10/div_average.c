// An average over the items the workers have published: main divides
// the sum by the count, both read under a mutex. Default: main waits for
// both workers (joins) before dividing: PASS everywhere. -D BUG: main
// divides before the joins, when no worker may have run yet: a division
// by zero (C11 6.5.5: undefined; x86's IDIV traps, SIGFPE) in the
// executions where count is still 0: FAIL everywhere, at the division.
// A second division, of INT_MIN by a worker's -1, is the same kind of
// trap (signed overflow): default and BUG divide by -1 only a value
// that is not INT_MIN.
#include <assert.h>
#include <limits.h>
#include <pthread.h>

static int sum, count, divisor = 1;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  int v = (int)(long)arg;
  pthread_mutex_lock(&mu);
  sum += v;
  count++;
  divisor = -1;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)4);
  pthread_create(&b, 0, worker, (void *)8);
#ifndef BUG
  pthread_join(a, 0);
  pthread_join(b, 0);
#endif
  pthread_mutex_lock(&mu);
  int avg = sum / count;
  int neg = (INT_MIN + 1) / divisor;
  pthread_mutex_unlock(&mu);
#ifdef BUG
  pthread_join(a, 0);
  pthread_join(b, 0);
#endif
  assert(avg <= 8 && neg != 0);
  return 0;
}
