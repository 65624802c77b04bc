// A thread publishes the address of its own local and ends with
// pthread_exit, called from a helper: the thread's stack goes, and with
// it the local (C11 6.2.4p2; POSIX: pthread_exit ends the thread, whose
// automatic objects are then gone).
// Default: main reads the value, then tells the worker it may end: every
// read happens before the worker's end. PASS under every model.
// -D BUG: main joins the worker first, then reads: FAIL at line 45,
// "use of the local variable box of worker after its lifetime ended",
// under every model. (Natively the stack is cached by glibc and the
// value usually survives: 0/100 runs fail; ASan does not watch it.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static _Atomic(int *) shared;
static atomic_int done_reading;

static void finish(void) {
  while (!atomic_load_explicit(&done_reading, memory_order_acquire))
    ;
  pthread_exit(0);
}

static void *worker(void *arg) {
  (void)arg;
  int box = 42;
  atomic_store_explicit(&shared, &box, memory_order_release);
  finish();
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
  atomic_store_explicit(&done_reading, 1, memory_order_release);
  pthread_join(t, 0);
#else
  atomic_store_explicit(&done_reading, 1, memory_order_release);
  pthread_join(t, 0);
  assert(*p == 42);
#endif
  return 0;
}
