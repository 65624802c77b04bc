// A ticket lock whose spin reads now_serving relaxed (the bug).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_uint next_ticket, now_serving;
int counter;
static void lock(void) {
  unsigned t = atomic_fetch_add_explicit(&next_ticket, 1, memory_order_relaxed);
  while (atomic_load_explicit(&now_serving, memory_order_relaxed) != t)
    ;
}
static void unlock(void) {
  unsigned n = atomic_load_explicit(&now_serving, memory_order_relaxed);
  atomic_store_explicit(&now_serving, n + 1, memory_order_release);
}
void *worker(void *arg) {
  lock();
  counter++;
  unlock();
  return NULL;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  assert(counter == 3);
  return 0;
}
