// A single-producer single-consumer FIFO on a linked list with a stub
// node (ck_fifo_spsc's shape): the producer fills a fresh node from a
// static pool and links it after the tail with a release store of the
// tail's next; the consumer reads head->next with acquire, takes its
// value and makes it the new head (the stub).
// Default: PASS under every model (values come out in order 1, 2).
// -D BUG: the producer links the node before filling its value: the
// consumer may read the value before it is written: a race under
// rc11/imm, FAIL under sc and the targets.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct fnode {
  int value;
  _Atomic(struct fnode *) next;
};

static struct fnode stub;
static struct fnode pool[2];
static struct fnode *tail = &stub; // the producer's
static struct fnode *head = &stub; // the consumer's

static void enqueue(struct fnode *n, int v) {
  atomic_store_explicit(&n->next, 0, memory_order_relaxed);
#ifndef BUG
  n->value = v;
  atomic_store_explicit(&tail->next, n, memory_order_release);
#else
  atomic_store_explicit(&tail->next, n, memory_order_release);
  n->value = v;
#endif
  tail = n;
}

static int dequeue(int *v) {
  struct fnode *n = atomic_load_explicit(&head->next, memory_order_acquire);
  if (!n)
    return 0;
  *v = n->value;
  head = n;
  return 1;
}

static void *producer(void *arg) {
  (void)arg;
  enqueue(&pool[0], 1);
  enqueue(&pool[1], 2);
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  int want = 1, v;
  for (int tries = 0; tries < 2; tries++) {
    if (dequeue(&v)) {
      assert(v == want);
      want++;
    }
  }
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
