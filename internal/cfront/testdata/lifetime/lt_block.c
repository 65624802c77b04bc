// A block-scoped local of main handed to a thread: its lifetime ends
// where its block ends (C11 6.2.4p6: "its lifetime extends from entry
// into the block with which it is associated until execution of that
// block ends in any way"), not when main returns.
// Default: the thread is joined inside the block: PASS under every model.
// -D BUG: the block ends, then main lets the worker read: FAIL at line
// 25, "use of the local variable cfg of main after its lifetime ended",
// under every model. Natively, under AddressSanitizer (use-after-scope,
// clang's default), every run fails (stack-use-after-scope).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct config {
  int workers;
  int rounds;
};

static atomic_int go;

static void *worker(void *arg) {
  const struct config *c = arg;
  while (!atomic_load_explicit(&go, memory_order_acquire))
    ;
  assert(c->workers * c->rounds == 6);
  return 0;
}

int main(void) {
  pthread_t t;
  {
    struct config cfg = {2, 3};
    pthread_create(&t, 0, worker, &cfg);
#ifndef BUG
    atomic_store_explicit(&go, 1, memory_order_release);
    pthread_join(t, 0);
#endif
  }
#ifdef BUG
  atomic_store_explicit(&go, 1, memory_order_release);
  pthread_join(t, 0);
#endif
  return 0;
}
