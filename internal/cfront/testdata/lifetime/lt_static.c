// Close to a use after the lifetime, but fine: start() hands the worker
// the address of a static local, which lives as long as the program
// (static storage duration, C11 6.2.4p3), and returns before the worker
// reads it.
// Default: PASS under every model.
// -D BUG: the same without `static`: an automatic local, read after
// start returned: FAIL at line 26, "use of the local variable v of start
// after its lifetime ended", under every model (natively, under
// AddressSanitizer with detect_stack_use_after_return=1, every run
// fails).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define STORAGE
#else
#define STORAGE static
#endif

static atomic_int go;

static void *worker(void *arg) {
  while (!atomic_load_explicit(&go, memory_order_acquire))
    ;
  assert(*(int *)arg == 9);
  return 0;
}

static pthread_t start(void) {
  STORAGE int v = 9;
  pthread_t t;
  pthread_create(&t, 0, worker, &v);
  return t;
}

int main(void) {
  pthread_t t = start();
  atomic_store_explicit(&go, 1, memory_order_release);
  pthread_join(t, 0);
  return 0;
}
