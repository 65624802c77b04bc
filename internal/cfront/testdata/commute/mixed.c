// An add and an or on one location do not commute: from 1, add 1 then
// or 2 gives 2, or 2 then add 1 gives 4. FAIL (the 4).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x = 1;
void *add(void *p) {
  atomic_fetch_add_explicit(&x, 1, memory_order_relaxed);
  return 0;
}
void *or2(void *p) {
  atomic_fetch_or_explicit(&x, 2, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, add, 0);
  pthread_create(&t2, 0, or2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(atomic_load(&x) == 2);
  return 0;
}
