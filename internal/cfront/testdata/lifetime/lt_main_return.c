// main hands a local to a thread and returns without joining it. C11
// 5.1.2.2.3: returning from main is calling exit, and its footnote adds
// that "the lifetimes of objects with automatic storage duration declared
// in main will have ended" (6.2.4), though the other threads go on
// until the process ends.
// Default: main joins the worker: PASS under every model.
// -D BUG: main returns at once; the worker's read of *p is not ordered
// before main's return (it may come after): FAIL at line 18, "use of the
// local variable seed of main after its lifetime ended", under every
// model. (Natively the process usually ends first: the UB is silent.)
#include <assert.h>
#include <pthread.h>

static int sum;

static void *worker(void *arg) {
  int *p = arg;
  sum = *p + 1;
  return 0;
}

int main(void) {
  int seed = 41;
  pthread_t t;
  pthread_create(&t, 0, worker, &seed);
#ifndef BUG
  pthread_join(t, 0);
  assert(sum == 42);
#endif
  return 0;
}
