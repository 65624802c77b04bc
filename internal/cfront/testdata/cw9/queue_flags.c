// SV-COMP's queue_ok shape: a bounded array queue with enqueue and
// dequeue under a mutex and a flag that says whether the producer has
// enqueued; the consumer dequeues only after it. Default: PASS
// everywhere. -D BUG: the producer sets the flag before it enqueues,
// and outside the lock: the consumer may find the queue empty (FAIL)
// and the flag is a data race (RACE under rc11/imm).
#include <assert.h>
#include <pthread.h>

#define SIZE 4
static int q[SIZE], head, amount;
static int enq_flag;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static int enqueue(int x) {
  if (amount == SIZE)
    return -1;
  q[(head + amount) % SIZE] = x;
  amount++;
  return 0;
}

static int dequeue(void) {
  if (amount == 0)
    return -1;
  int x = q[head];
  head = (head + 1) % SIZE;
  amount--;
  return x;
}

static void *prod(void *arg) {
  (void)arg;
#ifdef BUG
  enq_flag = 1;
#endif
  pthread_mutex_lock(&m);
  assert(enqueue(7) == 0);
#ifndef BUG
  enq_flag = 1;
#endif
  pthread_mutex_unlock(&m);
  return 0;
}

static void *cons(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  if (enq_flag)
    assert(dequeue() == 7);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, prod, 0);
  pthread_create(&b, 0, cons, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
