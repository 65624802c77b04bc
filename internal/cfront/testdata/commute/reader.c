// A third thread reads the counter while two threads add to it: it can
// see 2 (the second thread's update first). FAIL: the reduction must
// give the counter up (a read that is not main's).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int c;
void *add(void *p) {
  atomic_fetch_add_explicit(&c, (int)(long)p, memory_order_relaxed);
  return 0;
}
void *look(void *p) {
  int v = atomic_load_explicit(&c, memory_order_relaxed);
  assert(v != 2);
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, add, (void *)1);
  pthread_create(&t2, 0, add, (void *)2);
  pthread_create(&t3, 0, look, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  assert(atomic_load(&c) == 3);
  return 0;
}
