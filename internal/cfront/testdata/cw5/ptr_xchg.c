// An atomic pointer mailbox: the producer fills a malloc'ed message and
// swaps it in with a release exchange; the consumer spins swapping NULL
// in with an acquire exchange until it gets a message, then reads it.
// PASS under every model.
// -DBUG: both exchanges relaxed, with atomic_signal_fence(seq_cst)
// around them: a signal fence orders only against a signal handler of
// the same thread, so the message's fields race with their reads (RACE
// under rc11 and imm) and can be read stale on aarch64 (FAIL); x86 and
// sc PASS.
// -DTFENCE: relaxed exchanges with release/acquire thread fences: PASS.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
struct msg {
  int a;
  long b;
};
static _Atomic(struct msg *) mbox;
#if defined(BUG)
#define BEFORE() atomic_signal_fence(memory_order_seq_cst)
#define AFTER() atomic_signal_fence(memory_order_seq_cst)
#define PUT_MO memory_order_relaxed
#define GET_MO memory_order_relaxed
#elif defined(TFENCE)
#define BEFORE() atomic_thread_fence(memory_order_release)
#define AFTER() atomic_thread_fence(memory_order_acquire)
#define PUT_MO memory_order_relaxed
#define GET_MO memory_order_relaxed
#else
#define BEFORE() ((void)0)
#define AFTER() ((void)0)
#define PUT_MO memory_order_release
#define GET_MO memory_order_acquire
#endif
static void *producer(void *arg) {
  (void)arg;
  struct msg *m = malloc(sizeof *m);
  m->a = 1;
  m->b = 2;
  BEFORE();
  struct msg *old = atomic_exchange_explicit(&mbox, m, PUT_MO);
  assert(old == NULL);
  return NULL;
}
static void *consumer(void *arg) {
  (void)arg;
  struct msg *m;
  while ((m = atomic_exchange_explicit(&mbox, NULL, GET_MO)) == NULL)
    ;
  AFTER();
  assert(m->a == 1 && m->b == 2);
  free(m);
  return NULL;
}
int main(void) {
  pthread_t p, c;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return 0;
}
