// Message passing whose header comes from -I and whose variant is chosen
// with -D WEAK (a relaxed flag write): GNU C (typeof, asm) compiles with
// the default -std=gnu11.
#include <pthread.h>
#include "weak.h"

int data;
atomic_int flag;

void *writer(void *a) {
  typeof(data) v = 42;
  data = v;
  atomic_store_explicit(&flag, 1, ORDER);
  return 0;
}

void *reader(void *a) {
  int r = atomic_load_explicit(&flag, memory_order_acquire);
  check_data(r, data);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  return 0;
}
