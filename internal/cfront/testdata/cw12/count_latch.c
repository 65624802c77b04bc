// A count-down latch on a mutex and a condition variable (Java's
// CountDownLatch in C): workers fill their result and count down; the
// waiter blocks until the count is zero and then sums the results.
// Default: PASS under every model.
// -D BUG: the waiter checks the count once with `if` and no mutex around
// the read (a lost-wakeup shape): it may go on before the count reached
// zero and read a result not yet written: a race under rc11/imm, FAIL
// under the others.
#include <assert.h>
#include <pthread.h>

#define W 2

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t zero = PTHREAD_COND_INITIALIZER;
static int count = W;
static int result[W];

static void count_down(void) {
  pthread_mutex_lock(&m);
  if (--count == 0)
    pthread_cond_broadcast(&zero);
  pthread_mutex_unlock(&m);
}

static void await_zero(void) {
#ifdef BUG
  if (count > 0) {
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
  }
#else
  pthread_mutex_lock(&m);
  while (count > 0)
    pthread_cond_wait(&zero, &m);
  pthread_mutex_unlock(&m);
#endif
}

static void *worker(void *arg) {
  int i = (int)(long)arg;
  result[i] = i + 1;
  count_down();
  return 0;
}

int main(void) {
  pthread_t t[W];
  for (long i = 0; i < W; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  await_zero();
  assert(result[0] + result[1] == 3);
  for (int i = 0; i < W; i++)
    pthread_join(t[i], 0);
  return 0;
}
