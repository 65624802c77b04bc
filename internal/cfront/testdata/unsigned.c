// Unsigned comparisons of 32- and 64-bit values holding -1.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_long x;
void *t(void *a) { atomic_store_explicit(&x, -1, memory_order_relaxed); return NULL; }
int main(void) {
  pthread_t p;
  pthread_create(&p, NULL, t, NULL);
  pthread_join(p, NULL);
  unsigned long v = atomic_load_explicit(&x, memory_order_relaxed);
  unsigned w = (unsigned)v;
  assert(v > 7ul && w >= 7u && !(w <= 3u) && 2u < w);
  return 0;
}
