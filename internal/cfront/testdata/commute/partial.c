// Two locations: x gets an add and an or (two kinds of update: given
// up, its updates left as they are), y gets adds (kept). PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x = 1, y;
void *t(void *p) {
  atomic_fetch_add_explicit(&x, 1, memory_order_relaxed);
  atomic_fetch_or_explicit(&x, 4, memory_order_relaxed);
  atomic_fetch_add_explicit(&y, (int)(long)p, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, t, (void *)1);
  pthread_create(&t2, 0, t, (void *)2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(atomic_load(&x) == 7);
  assert(atomic_load(&y) == 3);
  return 0;
}
