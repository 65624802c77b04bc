// A timed wait whose deadline is computed from the clock (the suites'
// style: clock_gettime, then pthread_cond_timedwait in a loop until the
// predicate holds or the wait times out), and a thread that measures a
// time. The clock is an arbitrary time, non-decreasing within a thread:
// the elapsed time is never negative (PASS). -DBUG asserts the flag after
// the loop, which a time-out leaves unset (FAIL at line 43). -DBUGCLK
// asserts that two readings differ, which the clock does not promise
// (FAIL at line 52).
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *setter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  struct timespec start, deadline, end;
  pthread_create(&t, 0, setter, 0);
  clock_gettime(CLOCK_MONOTONIC, &start);
  deadline = start;
  deadline.tv_sec += 1;
  int rc = 0;
  pthread_mutex_lock(&m);
  while (!ready && rc != ETIMEDOUT)
    rc = pthread_cond_timedwait(&c, &m, &deadline);
  int seen = ready;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  (void)seen;
#ifdef BUG
  assert(seen);
#endif
  clock_gettime(CLOCK_MONOTONIC, &end);
  long long ns = (long long)(end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
  assert(ns >= 0);
  assert(end.tv_nsec >= 0 && end.tv_nsec < 1000000000L);
  time_t now = time(0);
  assert(now >= 0);
#ifdef BUGCLK
  assert(ns != 0);
#endif
  return 0;
}
