// Close to a use after the lifetime, but fine: locals handed to threads
// that are joined before the locals' blocks end, in the shapes programs
// use: a helper called twice in a row (two instances of its local), a
// helper called in a loop, a block-scoped array in a loop body, and a
// local passed down to a nested function that creates the thread.
// Default: PASS under every model (no read outlives its object).
// -D BUG: run() joins its thread only after returning to main, through
// the pthread_t it returns: FAIL at line 23, "use of the local variable
// arg of run after its lifetime ended", under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int total;
static atomic_int go;

static void *add(void *arg) {
#ifdef BUG
  while (!atomic_load_explicit(&go, memory_order_acquire))
    ;
#endif
  const int *p = arg;
  atomic_fetch_add_explicit(&total, *p, memory_order_relaxed);
  return 0;
}

static void spawn(pthread_t *t, int *arg) { pthread_create(t, 0, add, arg); }

static pthread_t run(int k) {
  int arg = k;
  pthread_t t;
  spawn(&t, &arg);
#ifndef BUG
  pthread_join(t, 0);
#endif
  return t;
}

int main(void) {
#ifndef BUG
  run(1);
  run(2);
  for (int i = 0; i < 2; i++)
    run(10);
  for (int i = 0; i < 2; i++) {
    int pair[2] = {100, 100};
    pthread_t a, b;
    pthread_create(&a, 0, add, &pair[0]);
    pthread_create(&b, 0, add, &pair[1]);
    pthread_join(a, 0);
    pthread_join(b, 0);
  }
  assert(atomic_load(&total) == 1 + 2 + 20 + 400);
#else
  pthread_t t = run(5);
  atomic_store_explicit(&go, 1, memory_order_release);
  pthread_join(t, 0);
#endif
  return 0;
}
