// A signal handler setting a volatile sig_atomic_t flag, raised by the
// program itself (raise). Musket has no signals: the program must be
// refused by name, not run as if the handler were never called.
// Refused by name ("call to signal, which has no definition and is not
// supported") in every cell.
// Default: natively PASS (raise runs the handler before it returns).
// -D BUG: the flag is asserted to be still 0 after raise: FAIL natively.
#include <assert.h>
#include <pthread.h>
#include <signal.h>

static volatile sig_atomic_t got;

static void handler(int sig) { got = sig; }

static void *worker(void *arg) {
  (void)arg;
  raise(SIGUSR1);
#ifdef BUG
  assert(got == 0);
#else
  assert(got == SIGUSR1);
#endif
  return 0;
}

int main(void) {
  signal(SIGUSR1, handler);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
