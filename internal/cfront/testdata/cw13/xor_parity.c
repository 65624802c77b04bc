// atomic_fetch_xor toggles (C11 7.17.7.5): two threads toggle bit 0 of
// an atomic word twice each; the bit is back to 0 after the joins.
// Default: PASS under every model.
// -D BUG: a plain "^=" on a plain word: a race under rc11 and imm (R),
// a lost toggle under the other models, sc included (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
static unsigned word;
#define TOGGLE() (word ^= 1u)
#else
static atomic_uint word;
#define TOGGLE() atomic_fetch_xor_explicit(&word, 1u, memory_order_relaxed)
#endif

static void *toggler(void *a) {
  (void)a;
  TOGGLE();
  TOGGLE();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, toggler, 0);
  pthread_create(&b, 0, toggler, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert((word & 1u) == 0);
  return 0;
}
