// main reads the counter after joining the first thread only: it can
// see 1 (the second thread not there yet). FAIL: main's read comes
// before a thread that updates the counter ended.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int c;
void *add(void *p) {
  atomic_fetch_add_explicit(&c, (int)(long)p, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, add, (void *)1);
  pthread_create(&t2, 0, add, (void *)2);
  pthread_join(t1, 0);
  assert(atomic_load(&c) != 1);
  pthread_join(t2, 0);
  return 0;
}
