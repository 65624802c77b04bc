// volatile is no atomic (C11 5.1.2.3p6 and 5.1.2.4p25): a volatile
// counter incremented by two threads is a data race, and its ++ is a
// load and a store. The default uses atomic_fetch_add.
// Default: PASS under every model.
// -D BUG: volatile int and ++: a race under rc11 and imm (R); a lost
// update under every other model, sc included (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
static volatile int hits;
#define BUMP() (hits++)
#else
static atomic_int hits;
#define BUMP() atomic_fetch_add_explicit(&hits, 1, memory_order_relaxed)
#endif

static void *worker(void *a) {
  (void)a;
  BUMP();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hits == 2);
  return 0;
}
