// Lazy creation by CAS install: each thread makes a candidate object,
// tries to install it with compare_exchange (acq_rel), and the loser
// frees its own candidate and uses the winner's.
// Default: PASS under every model.
// -D BUG: the loser frees the object it read from the pointer (the
// winner's) instead of its own: the winner then uses a freed object:
// FAIL "use after free" under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct obj {
  int magic;
};

static _Atomic(struct obj *) inst;

static void *user(void *a) {
  (void)a;
  struct obj *mine = malloc(sizeof *mine);
  mine->magic = 77;
  struct obj *cur = 0;
  if (!atomic_compare_exchange_strong_explicit(&inst, &cur, mine, memory_order_acq_rel, memory_order_acquire)) {
#ifdef BUG
    free(cur);
#else
    free(mine);
#endif
  } else {
    cur = mine;
  }
  assert(cur->magic == 77);
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
