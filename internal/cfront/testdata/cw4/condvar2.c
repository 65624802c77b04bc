// A bounded buffer count under a pthread mutex with a condition variable:
// one producer adds two items (signalling after each), two consumers take
// one each, waiting while the count is 0. PASS everywhere (the waits are
// in while loops). -DBUG: the consumers wait under `if`: a consumer woken
// by the first signal can find the item already taken by the other
// consumer, which came in without waiting; FAIL (count below 0) under
// every model, sc included.
#include <assert.h>
#include <pthread.h>
#ifdef BUG
#define WAIT_WHILE if
#else
#define WAIT_WHILE while
#endif
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
int count;
void *producer(void *arg) {
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    count++;
    pthread_cond_signal(&nonempty);
    pthread_mutex_unlock(&m);
  }
  return NULL;
}
void *consumer(void *arg) {
  pthread_mutex_lock(&m);
  WAIT_WHILE (count == 0)
    pthread_cond_wait(&nonempty, &m);
  count--;
  assert(count >= 0);
  pthread_mutex_unlock(&m);
  return NULL;
}
int main(void) {
  pthread_t p, c[2];
  pthread_create(&c[0], NULL, consumer, NULL);
  pthread_create(&c[1], NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, NULL);
  pthread_join(p, NULL);
  pthread_join(c[0], NULL);
  pthread_join(c[1], NULL);
  assert(count == 0);
  return 0;
}
