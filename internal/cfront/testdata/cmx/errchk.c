// An error-checking mutex (PTHREAD_MUTEX_ERRORCHECK) used the way
// defensive code uses it: a helper that may be called with the mutex
// held tells by EDEADLK that its caller holds it, and the program checks
// POSIX's other answers: trylock by the owner is EBUSY (glibc), an
// unlock by a thread that does not hold it is EPERM and changes nothing.
// Default: PASS under every model (native: never fails).
// -DBUG: the helper assumes its relock succeeds (asserts 0): FAIL under
//   every model.
// -DBUG2: the helper, on EDEADLK, unlocks (believing it took the
//   mutex) and the caller's next increment is then outside the mutex:
//   RACE under rc11 and imm, FAIL under the others.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

static pthread_mutex_t mu;
static int hits;

static void bump_locked_or_not(void) {
  int r = pthread_mutex_lock(&mu);
#ifdef BUG
  assert(r == 0);
#endif
  assert(r == 0 || r == EDEADLK);
  hits++;
  if (r == 0) {
    pthread_mutex_unlock(&mu);
  }
#ifdef BUG2
  else {
    pthread_mutex_unlock(&mu);
  }
#endif
}

static void *worker(void *arg) {
  (void)arg;
  bump_locked_or_not(); /* not held: takes it */
  pthread_mutex_lock(&mu);
  assert(pthread_mutex_trylock(&mu) == EBUSY);
  bump_locked_or_not(); /* held: EDEADLK */
  hits++;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&mu, &at);
  pthread_mutexattr_destroy(&at);
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  /* main never holds mu: EPERM, and a worker's hold is not broken */
  assert(pthread_mutex_unlock(&mu) == EPERM);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(pthread_mutex_unlock(&mu) == EPERM); /* free: not ours */
  assert(hits == 6);
  return 0;
}
