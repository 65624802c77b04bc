// A thread spins on a flag that no thread sets: it waits forever.
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag, other;

void *waiter(void *arg) {
  while (atomic_load_explicit(&flag, memory_order_acquire) == 0)
    ;
  return NULL;
}

void *setter(void *arg) {
  atomic_store_explicit(&other, 1, memory_order_release);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, waiter, NULL);
  pthread_create(&b, NULL, setter, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
