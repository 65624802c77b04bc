// Electing one initialiser with atomic_flag_test_and_set: the thread
// that finds the flag clear builds the shared table and publishes it
// with a release store of "ready"; the others wait for ready (acquire)
// before they read the table.
// Default: PASS under every model.
// -D BUG: the losers do not wait for ready: they read the table while
// (or before) it is built: a race under rc11 and imm (R), FAIL under
// the other models, sc included.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_flag elected = ATOMIC_FLAG_INIT;
static atomic_int ready;
static int table[2];

static void *user(void *a) {
  (void)a;
  if (!atomic_flag_test_and_set_explicit(&elected, memory_order_relaxed)) {
    table[0] = 1;
    table[1] = 2;
    atomic_store_explicit(&ready, 1, memory_order_release);
  } else {
#ifndef BUG
    while (!atomic_load_explicit(&ready, memory_order_acquire))
      ;
#endif
  }
  assert(table[0] + table[1] == 3);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, user, 0);
  pthread_create(&b, 0, user, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
