// A test-and-set lock on an atomic_flag with sched_yield in its spin loop.
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
atomic_flag lk = ATOMIC_FLAG_INIT;
int counter;
void *worker(void *arg) {
  while (atomic_flag_test_and_set_explicit(&lk, memory_order_acquire))
    sched_yield();
  counter++;
  atomic_flag_clear_explicit(&lk, memory_order_release);
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
