// Relaxed updates of a counter, and a plain write of it by a third
// thread: a data race (RACE under rc11). The reduction gives the counter
// up (a write that is no update).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int c;
void *add(void *p) {
  atomic_fetch_add_explicit(&c, 1, memory_order_relaxed);
  return 0;
}
void *reset(void *p) {
  *(int *)&c = 0;
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, add, 0);
  pthread_create(&t2, 0, add, 0);
  pthread_create(&t3, 0, reset, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  assert(atomic_load(&c) <= 2);
  return 0;
}
