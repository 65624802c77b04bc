// A loop that needs more iterations than the bound in every execution,
// sequentially consistent ones included: BOUND under IMM, SC and Power.
// The shortcut answers it (powerbound.go: no failure under IMM, an
// execution past the bound under SC).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;
int n = 3;

static void *t2(void *p) {
  (void)p;
  for (int i = 0; i < n; i++)
    atomic_store_explicit(&x, i, memory_order_relaxed);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t2, 0);
  int r = atomic_load_explicit(&x, memory_order_relaxed);
  pthread_join(t, 0);
  assert(r < n);
  return 0;
}
