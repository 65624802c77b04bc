// Release/acquire updates synchronise: the order of the two fetch_adds
// decides whether the second thread sees the first one's data. Not
// reduced (its updates are not relaxed). RACE under rc11, FAIL under sc
// when the reader updates first (it reads data before the writer).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int c;
int data;
void *w(void *p) {
  data = 1;
  atomic_fetch_add_explicit(&c, 1, memory_order_release);
  return 0;
}
void *r(void *p) {
  if (atomic_fetch_add_explicit(&c, 1, memory_order_acquire) == 1)
    assert(data == 1);
  else
    assert(data == 1);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, 0);
  pthread_create(&t2, 0, r, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(atomic_load(&c) == 2);
  return 0;
}
