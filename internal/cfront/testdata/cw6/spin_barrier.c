// pthread spinlocks and a pthread barrier: three threads each add their
// id to a sum under a pthread_spinlock_t, meet at a barrier, and then
// each checks the complete sum (the barrier orders every add before
// every check). pthread_spin_trylock is used for the first attempt.
// PASS everywhere.
// -DBUG: the check comes before the barrier (under the spinlock, so no
// race): a thread may see a partial sum, FAIL under every model.
#include <pthread.h>
#include <assert.h>
#define N 3
static pthread_spinlock_t sl;
static pthread_barrier_t bar;
static int sum;
static void *worker(void *arg) {
  int id = (int)(long)arg;
  if (pthread_spin_trylock(&sl) != 0)
    pthread_spin_lock(&sl);
  sum += id;
  pthread_spin_unlock(&sl);
#ifdef BUG
  pthread_spin_lock(&sl);
  int s = sum;
  pthread_spin_unlock(&sl);
  assert(s == 6);
  pthread_barrier_wait(&bar);
#else
  pthread_barrier_wait(&bar);
  assert(sum == 6);
#endif
  return NULL;
}
int main(void) {
  pthread_t t[N];
  pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE);
  pthread_barrier_init(&bar, NULL, N);
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], NULL, worker, (void *)(i + 1));
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  pthread_barrier_destroy(&bar);
  pthread_spin_destroy(&sl);
  return 0;
}
