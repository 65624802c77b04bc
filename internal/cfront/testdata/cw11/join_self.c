// pthread_join misuse, as Dartagnan's thread_invalid_join_self checks:
// a thread joining itself. POSIX lets pthread_join fail with EDEADLK
// when "the thread parameter specifies the calling thread", and glibc
// does detect it and returns EDEADLK at once; the call must not wait
// forever and must not succeed.
// Default: the worker asserts the result is EDEADLK: PASS natively.
// -D BUG: the worker asserts the join succeeded (0): FAIL natively.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

static void *worker(void *arg) {
  (void)arg;
  int rc = pthread_join(pthread_self(), 0);
#ifdef BUG
  assert(rc == 0);
#else
  assert(rc == EDEADLK);
#endif
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
