// A spinlock with relaxed orderings (a bug) protecting a plain counter; each of
// two threads increments it once, main checks the total.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

atomic_int lock;
int counter;

static void acquire(void) {
  for (;;) {
    while (atomic_load_explicit(&lock, memory_order_relaxed) != 0)
      ;
    int e = 0;
    if (atomic_compare_exchange_strong_explicit(&lock, &e, 1, memory_order_relaxed, memory_order_relaxed))
      return;
  }
}

static void release(void) { atomic_store_explicit(&lock, 0, memory_order_relaxed); }

void *worker(void *arg) {
  acquire();
  counter = counter + 1;
  release();
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(counter == 2);
  return 0;
}
