// Message passing with relaxed accesses: the reader may see the flag and not the data.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int data;
atomic_int flag;

void *writer(void *arg) {
  atomic_store_explicit(&data, 42, memory_order_relaxed);
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  return NULL;
}

void *reader(void *arg) {
  while (atomic_load_explicit(&flag, memory_order_relaxed) == 0)
    ;
  assert(atomic_load_explicit(&data, memory_order_relaxed) == 42);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
