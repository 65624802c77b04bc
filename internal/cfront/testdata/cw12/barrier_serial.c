// pthread_barrier_wait returns PTHREAD_BARRIER_SERIAL_THREAD to exactly
// one thread of each round: that thread alone folds the partial results
// (a reduction after a phase).
// Default: PASS under every model.
// -D BUG: every thread folds (the return value ignored): two threads
// write the total at once: a race under rc11/imm, FAIL under the others
// (the total counted twice).
#include <assert.h>
#include <pthread.h>

#define N 2

static pthread_barrier_t bar;
static int part[N];
static int total;

static void *worker(void *arg) {
  int i = (int)(long)arg;
  part[i] = i + 10;
  int r = pthread_barrier_wait(&bar);
#ifdef BUG
  (void)r;
  total += part[0] + part[1];
#else
  if (r == PTHREAD_BARRIER_SERIAL_THREAD)
    total = part[0] + part[1];
#endif
  return 0;
}

int main(void) {
  pthread_barrier_init(&bar, 0, N);
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  assert(total == 21);
  pthread_barrier_destroy(&bar);
  return 0;
}
