// Dining philosophers, three of them, each taking the forks (mutexes)
// on both sides and eating once (a plain per-fork use counter).
// Default: resource ordering (each takes the lower-numbered fork
// first): no deadlock: PASS under every model, and with -liveness.
// -DBUG: each takes the left fork first: the circular wait can
// deadlock (natively it sometimes hangs). A deadlock is no assertion
// failure: PASS without -liveness (as GenMC without
// --check-liveness), LIVELOCK ("waits forever") with -liveness.
#include <assert.h>
#include <pthread.h>

#define N 3
static pthread_mutex_t fork_mu[N] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static int uses[N];

static void *philosopher(void *arg) {
  int i = (int)(long)arg;
  int left = i, right = (i + 1) % N;
#ifdef BUG
  int first = left, second = right;
#else
  int first = left < right ? left : right, second = left < right ? right : left;
#endif
  pthread_mutex_lock(&fork_mu[first]);
  pthread_mutex_lock(&fork_mu[second]);
  uses[left]++;
  uses[right]++;
  pthread_mutex_unlock(&fork_mu[second]);
  pthread_mutex_unlock(&fork_mu[first]);
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, philosopher, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  for (int i = 0; i < N; i++)
    assert(uses[i] == 2);
  return 0;
}
