// Load buffering through a relaxed exchange, as lbrmw.c, but with a release fence (lwsync) between them:
// Power orders the exchange's read before the store, the IMM shortcut
// covers it, and both say PASS.
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
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  pthread_join(t, 0);
  assert(!(r == 1 && a1 == 1));
  return 0;
}
