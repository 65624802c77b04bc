// Load buffering through a relaxed exchange: IMM orders the exchange's
// read before the later store ([R_ex]; po in its ppo, from the Power
// mapping's lwarx/stwcx. loop), Musket's Power pair does not. PASS under
// IMM, FAIL under -target power: the IMM shortcut must refuse it.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int a1;

static void *t2(void *p) {
  (void)p;
  int a = atomic_load_explicit(&y, memory_order_relaxed);
  atomic_store_explicit(&x, a, memory_order_relaxed);
  a1 = a;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t2, 0);
  int r = atomic_exchange_explicit(&x, 5, memory_order_relaxed);
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  pthread_join(t, 0);
  assert(!(r == 1 && a1 == 1));
  return 0;
}
