// A gate: two waiters sleep on a condition variable until main opens
// the gate and broadcasts. Waiters re-check the predicate in a loop, as
// POSIX requires (a wait may return spuriously, and a broadcast wakes
// every waiter). Default: PASS everywhere. -D BUG: a waiter checks the
// predicate with "if" instead of "while": a spurious wake-up (POSIX
// allows it: pthread_cond_wait, "spurious wakeups ... may occur") lets
// it pass a closed gate: FAIL everywhere (no race: the gate is read
// under the mutex). Natively spurious wake-ups are rare: 0 failures.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int open_gate;
static int passed;

static void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
#ifdef BUG
  if (!open_gate)
#else
  while (!open_gate)
#endif
    pthread_cond_wait(&cv, &mu);
  assert(open_gate);
  passed++;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, waiter, 0);
  pthread_create(&b, 0, waiter, 0);
  pthread_mutex_lock(&mu);
  open_gate = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(passed == 2);
  return 0;
}
