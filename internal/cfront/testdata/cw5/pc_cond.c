// A bounded buffer (two slots) with one mutex and two condition
// variables, waits in while loops: two producers put two items each, one
// consumer takes four and checks their sum and that it never took from
// an empty buffer. PASS under every model.
// -DBUG: the consumer's loop runs once too often (i <= 4): its fifth get
// waits for an item no producer will put, and main waits in its join
// forever: a deadlock, whatever the memory model.
// (A single condition variable with signal is not a bug with one
// consumer: every wrong wake-up rechecks its condition, and a producer
// only waits when the consumer will take, and signal, again.)
#include <pthread.h>
#include <assert.h>
#define SLOTS 2
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
#ifdef BUG
#define LAST 4
#else
#define LAST 3
#endif
static int buf[SLOTS];
static int count, in, out;
static void put(int v) {
  pthread_mutex_lock(&m);
  while (count == SLOTS)
    pthread_cond_wait(&not_full, &m);
  buf[in] = v;
  in = (in + 1) % SLOTS;
  count++;
  pthread_cond_signal(&not_empty);
  pthread_mutex_unlock(&m);
}
static int get(void) {
  pthread_mutex_lock(&m);
  while (count == 0)
    pthread_cond_wait(&not_empty, &m);
  int v = buf[out];
  out = (out + 1) % SLOTS;
  count--;
  pthread_cond_signal(&not_full);
  pthread_mutex_unlock(&m);
  return v;
}
static void *producer(void *arg) {
  int base = *(int *)arg;
  put(base + 1);
  put(base + 2);
  return NULL;
}
static void *consumer(void *arg) {
  int sum = 0;
  for (int i = 0; i <= LAST; i++) {
    int v = get();
    assert(v > 0);
    sum += v;
  }
  *(int *)arg = sum;
  return NULL;
}
int main(void) {
  pthread_t p1, p2, c;
  int b1 = 0, b2 = 10, sum = 0;
  pthread_create(&c, NULL, consumer, &sum);
  pthread_create(&p1, NULL, producer, &b1);
  pthread_create(&p2, NULL, producer, &b2);
  pthread_join(p1, NULL);
  pthread_join(p2, NULL);
  pthread_join(c, NULL);
  assert(sum == 1 + 2 + 11 + 12);
  return 0;
}
