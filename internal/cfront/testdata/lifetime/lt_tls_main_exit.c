// Main's copy of a thread-local variable handed to a worker: main's
// thread ends at its pthread_exit while the worker goes on, and the
// copy's lifetime is its thread's execution (C11 6.2.4p4; a return from
// main would instead end the process, 5.1.2.2.3).
// Default: main joins the worker before it returns: PASS under every
// model.
// -D BUG: main calls pthread_exit before the worker reads: FAIL at
// line 24, "use of the thread-local variable mine of thread P0 after the
// thread ended", under every model. (Natively glibc keeps the initial
// thread's static TLS block, so no run fails: the behaviour is undefined
// all the same.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static _Thread_local int mine = 5;
static int *_Atomic shared;

static void *reader(void *arg) {
  (void)arg;
  int *p;
  while (!(p = atomic_load_explicit(&shared, memory_order_acquire)))
    ;
  assert(*p == 5);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  atomic_store_explicit(&shared, &mine, memory_order_release);
#ifdef BUG
  pthread_exit(0);
#endif
  pthread_join(t, 0);
  return 0;
}
