// A local handed to a thread and used after its function returned.
// start() passes &v to the worker, which waits for main's go-ahead and
// then reads *p. C11 6.2.4p2: v's lifetime ends when start returns; "if
// an object is referred to outside of its lifetime, the behavior is
// undefined".
// Default: start gives the go-ahead and joins the worker before it
// returns: every read of *p happens before v's end. PASS under every
// model.
// -D BUG: start returns at once; main gives the go-ahead: the read
// comes after start returned, under every model (the acquire of go is
// after main's release, after start's return). FAIL at line 25, "use of
// the local variable v of start after its lifetime ended". Natively,
// under AddressSanitizer with detect_stack_use_after_return=1, every run
// fails (stack-use-after-return).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int go;

static void *worker(void *arg) {
  int *p = arg;
  while (!atomic_load_explicit(&go, memory_order_acquire))
    ;
  assert(*p == 5);
  return 0;
}

static pthread_t start(void) {
  int v = 5;
  pthread_t t;
  pthread_create(&t, 0, worker, &v);
#ifndef BUG
  atomic_store_explicit(&go, 1, memory_order_release);
  pthread_join(t, 0);
#endif
  return t;
}

int main(void) {
  pthread_t t = start();
#ifdef BUG
  atomic_store_explicit(&go, 1, memory_order_release);
  pthread_join(t, 0);
#else
  (void)t;
#endif
  return 0;
}
