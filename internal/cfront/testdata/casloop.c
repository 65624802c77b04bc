// Two threads add to a counter with weak compare-and-swap loops, a third
// with fetch_add; the total is checked after the joins.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int c;

void *add(void *arg) {
  int v = atomic_load_explicit(&c, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(&c, &v, v + (int)(long)arg, memory_order_relaxed, memory_order_relaxed))
    ;
  return NULL;
}

void *inc(void *arg) {
  atomic_fetch_add_explicit(&c, 5, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], NULL, add, (void *)1);
  pthread_create(&t[1], NULL, add, (void *)2);
  pthread_create(&t[2], NULL, inc, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  assert(atomic_load_explicit(&c, memory_order_relaxed) == 8);
  return 0;
}
