// A third thread reads the counter through a pointer it gets as its
// argument (an address the rewrite cannot place before the run): it can
// see 2. FAIL: that read meets the test on its address, and the counter
// is given up.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int c;
void *add(void *p) {
  atomic_fetch_add_explicit(&c, (int)(long)p, memory_order_relaxed);
  return 0;
}
void *look(void *p) {
  int v = atomic_load_explicit((atomic_int *)p, memory_order_relaxed);
  assert(v != 2);
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, add, (void *)1);
  pthread_create(&t2, 0, add, (void *)2);
  pthread_create(&t3, 0, look, &c);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  assert(atomic_load(&c) == 3);
  return 0;
}
