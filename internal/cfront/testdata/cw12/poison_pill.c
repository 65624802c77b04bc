// A work queue closed by a "poison pill" (a sentinel job that tells the
// consumer to stop), on a mutex and a condition variable: the producer
// puts two jobs and the pill; the consumer takes jobs until the pill and
// sums them.
// Default: PASS under every model.
// -D BUG: the producer puts the pill before the last job: the consumer
// stops early and the sum misses it: FAIL under every model.
#include <assert.h>
#include <pthread.h>

#define CAP 4
#define PILL -1

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
static int q[CAP];
static int head, tail;
static int sum;

static void put(int v) {
  pthread_mutex_lock(&m);
  q[tail++ % CAP] = v;
  pthread_cond_signal(&nonempty);
  pthread_mutex_unlock(&m);
}

static int take(void) {
  pthread_mutex_lock(&m);
  while (head == tail)
    pthread_cond_wait(&nonempty, &m);
  int v = q[head++ % CAP];
  pthread_mutex_unlock(&m);
  return v;
}

static void *consumer(void *arg) {
  (void)arg;
  for (int k = 0; k < 3; k++) {
    int v = take();
    if (v == PILL)
      break;
    sum += v;
  }
  return 0;
}

int main(void) {
  pthread_t c;
  pthread_create(&c, 0, consumer, 0);
  put(3);
#ifdef BUG
  put(PILL);
  put(4);
#else
  put(4);
  put(PILL);
#endif
  pthread_join(c, 0);
  assert(sum == 7);
  return 0;
}
