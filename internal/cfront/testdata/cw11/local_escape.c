// A pointer to a local variable handed to a thread, used after the
// function that owns the local has returned (the lifetime of an object
// of automatic storage duration ends when its block ends, C11 6.2.4p2:
// "If an object is referred to outside of its lifetime, the behavior is
// undefined"). start() creates the worker with &v and returns; the
// worker reads *p after start has returned, racing with the reuse of
// start's stack frame by later calls.
// Default: start joins the worker before returning: PASS under every
// model.
// -D BUG: start returns without joining; main joins later: the worker's
// read may come after the local's lifetime ended (natively 34/100 runs
// fail: the frame is reused): FAIL at line 20, "use of the local variable
// v of start after its lifetime ended", under every model (TestLifetimes;
// it was a silent PASS before Musket ended locals' lifetimes).
#include <assert.h>
#include <pthread.h>

static void *worker(void *arg) {
  int *p = arg;
  assert(*p == 5);
  return 0;
}

static pthread_t start(void) {
  int v = 5;
  pthread_t t;
  pthread_create(&t, 0, worker, &v);
#ifndef BUG
  pthread_join(t, 0);
#endif
  return t;
}

static int clobber(int k) {
  volatile int w[4];
  for (int i = 0; i < 4; i++)
    w[i] = k;
  return w[0];
}

int main(void) {
  pthread_t t = start();
  clobber(9);
#ifdef BUG
  pthread_join(t, 0);
#else
  (void)t;
#endif
  return 0;
}
