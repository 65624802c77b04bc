// SV-COMP's sync01 shape: a producer and a consumer of a number num, each
// waiting on its condition variable while num is full (producer) or
// empty (consumer), for two rounds. Default: PASS everywhere. -D BUG:
// the consumer waits with "if" instead of "while" and the producer
// signals before it changes num: the consumer may take a number that is
// not there (FAIL everywhere).
#include <assert.h>
#include <pthread.h>

static int num;
static int taken;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t empty = PTHREAD_COND_INITIALIZER, full = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    while (num > 0)
      pthread_cond_wait(&empty, &m);
#ifdef BUG
    pthread_cond_signal(&full);
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    num++;
#else
    num++;
    pthread_cond_signal(&full);
#endif
    pthread_mutex_unlock(&m);
  }
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
#ifdef BUG
    if (num == 0)
#else
    while (num == 0)
#endif
      pthread_cond_wait(&full, &m);
    assert(num == 1);
    num--;
    taken++;
    pthread_cond_signal(&empty);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, 0);
  pthread_create(&b, 0, consumer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(taken == 2 && num == 0);
  return 0;
}
