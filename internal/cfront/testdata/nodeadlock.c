// Two threads take two locks in the same order: no deadlock.
#include <pthread.h>
#include <stdatomic.h>

atomic_int a, b;

static void lock(atomic_int *l) {
  int e = 0;
  while (!atomic_compare_exchange_strong_explicit(l, &e, 1, memory_order_acquire, memory_order_relaxed))
    e = 0;
}

static void unlock(atomic_int *l) { atomic_store_explicit(l, 0, memory_order_release); }

void *t0(void *arg) {
  lock(&a);
  lock(&b);
  unlock(&b);
  unlock(&a);
  return NULL;
}

void *t1(void *arg) {
  lock(&a);
  lock(&b);
  unlock(&b);
  unlock(&a);
  return NULL;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, NULL, t0, NULL);
  pthread_create(&y, NULL, t1, NULL);
  pthread_join(x, NULL);
  pthread_join(y, NULL);
  return 0;
}
