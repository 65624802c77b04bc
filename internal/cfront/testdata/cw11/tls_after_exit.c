// A pointer to a thread's _Thread_local variable handed to main and read
// after the thread ended. Such an object lives as long as its thread
// (C11 6.2.4p4): reading it after the join is undefined, as for a local
// after its function returned. The values read while the thread lives
// are fine: the worker publishes &mine (release), waits for main to
// read it (acquire), and ends.
// Default: main reads *p before the worker ends: PASS under every model.
// -D BUG: main reads *p after pthread_join: undefined (natively the
// value usually survives, 0/100): FAIL at line 41, "use of the
// thread-local variable mine of thread P1 after the thread ended", under
// every model (TestLifetimes; a silent PASS before).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static _Thread_local int mine = 1;
static _Atomic(int *) shared;
static atomic_int seen;

static void *worker(void *arg) {
  (void)arg;
  mine = 77;
  atomic_store_explicit(&shared, &mine, memory_order_release);
  while (!atomic_load_explicit(&seen, memory_order_acquire))
    ;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int *p;
  while (!(p = atomic_load_explicit(&shared, memory_order_acquire)))
    ;
#ifndef BUG
  assert(*p == 77);
#endif
  atomic_store_explicit(&seen, 1, memory_order_release);
  pthread_join(t, 0);
#ifdef BUG
  assert(*p == 77);
#endif
  assert(mine == 1);
  return 0;
}
