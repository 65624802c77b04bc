// A loop that is not a spin loop: it needs n iterations, more than a
// small bound.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;
int n = 3;

void *count(void *arg) {
  for (int i = 0; i < n; i++)
    atomic_fetch_add_explicit(&x, 1, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, count, NULL);
  pthread_join(t, NULL);
  assert(atomic_load_explicit(&x, memory_order_relaxed) == n);
  return 0;
}
