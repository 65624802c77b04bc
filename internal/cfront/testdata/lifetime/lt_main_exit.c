// main hands a local to a thread and ends with pthread_exit, so that the
// process lives on until the thread ends. The thread goes on, but main's
// locals are gone (pthread_exit ends the calling thread, and its
// automatic objects with it: C11 6.2.4p2).
// Default: main joins the worker before its pthread_exit: PASS under
// every model.
// -D BUG: main calls pthread_exit at once: the worker's read of *arg is
// not ordered before the end of v: FAIL at line 17, "use of the local
// variable v of main after its lifetime ended", under every model.
// (Natively the main thread's stack usually survives: 0/100 runs fail.)
#include <assert.h>
#include <pthread.h>

static int seen;

static void *worker(void *arg) {
  seen = *(int *)arg;
  return 0;
}

int main(void) {
  int v = 3;
  pthread_t t;
  pthread_create(&t, 0, worker, &v);
#ifndef BUG
  pthread_join(t, 0);
  assert(seen == 3);
#endif
  pthread_exit(0);
}
