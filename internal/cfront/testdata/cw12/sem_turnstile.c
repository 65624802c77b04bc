// A reusable two-phase barrier built from a mutex and two turnstile
// semaphores (Downey, "The Little Book of Semaphores", 3.7): the last
// thread to arrive opens the first turnstile n times, the last to leave
// opens the second; two rounds, each thread writing its slot before the
// barrier and reading the other's after.
// Default: PASS under every model.
// -D BUG: the second phase is left out (a one-turnstile barrier reused):
// a fast thread may run through round 2's barrier before the other left
// round 1's, and read the other's slot from round 1: FAIL under every
// model. (The slots are relaxed atomics: the barrier's mutex and
// semaphores order them.)
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

#define N 2

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t turn1, turn2;
static int count;
static atomic_int slot[N];

static void barrier(void) {
  pthread_mutex_lock(&m);
  if (++count == N)
    for (int i = 0; i < N; i++)
      sem_post(&turn1);
  pthread_mutex_unlock(&m);
  sem_wait(&turn1);
#ifndef BUG
  pthread_mutex_lock(&m);
  if (--count == 0)
    for (int i = 0; i < N; i++)
      sem_post(&turn2);
  pthread_mutex_unlock(&m);
  sem_wait(&turn2);
#else
  pthread_mutex_lock(&m);
  --count;
  pthread_mutex_unlock(&m);
#endif
}

static void *thread(void *arg) {
  int i = (int)(long)arg;
  for (int round = 1; round <= 2; round++) {
    atomic_store_explicit(&slot[i], round, memory_order_relaxed);
    barrier();
    int other = atomic_load_explicit(&slot[1 - i], memory_order_relaxed);
    assert(other >= round);
  }
  return 0;
}

int main(void) {
  sem_init(&turn1, 0, 0);
  sem_init(&turn2, 0, 0);
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, thread, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  return 0;
}
