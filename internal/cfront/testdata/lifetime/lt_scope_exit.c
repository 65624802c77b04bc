// A thread's block-scoped local whose block ends before the thread calls
// pthread_exit: its lifetime ends once, at the block's end (clang's
// mark), and pthread_exit does not end it again.
// Default: main reads the value while the block lives (the worker waits
// for main's acknowledgement inside the block): PASS under every model.
// -D BUG: main reads after joining the worker: FAIL at line 40, "use of
// the local variable box of worker after its lifetime ended", under
// every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static _Atomic(int *) shared;
static atomic_int seen;

static void *worker(void *arg) {
  (void)arg;
  {
    int box = 42;
    atomic_store_explicit(&shared, &box, memory_order_release);
    while (!atomic_load_explicit(&seen, memory_order_acquire))
      ;
  }
  pthread_exit(0);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int *p;
  while (!(p = atomic_load_explicit(&shared, memory_order_acquire)))
    ;
#ifndef BUG
  assert(*p == 42);
#endif
  atomic_store_explicit(&seen, 1, memory_order_release);
  pthread_join(t, 0);
#ifdef BUG
  assert(*p == 42);
#endif
  return 0;
}
