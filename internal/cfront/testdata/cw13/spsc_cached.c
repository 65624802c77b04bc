// A single-producer single-consumer ring with cached indices (the
// shape of Rigtorp's and Folly's queues): the producer keeps a copy of
// the consumer's head and re-reads it (acquire) only when the ring looks
// full; the consumer does the same with the tail. Indices are published
// with release stores.
// Default: three items through a ring of two slots: PASS under every
// model.
// -D BUG: the producer publishes the tail with a relaxed store: the slot
// write races with the consumer's read under rc11 and imm (R); aarch64,
// power and riscv may show the index before the slot (FAIL); x86 and sc
// PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define CAP 2
#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

static int ring[CAP];
static atomic_uint head, tail;

static void *producer(void *a) {
  (void)a;
  unsigned t = 0, hc = 0;
  for (int v = 1; v <= 3; v++) {
    if (t - hc == CAP)
      while (t - (hc = atomic_load_explicit(&head, memory_order_acquire)) == CAP)
        ;
    ring[t % CAP] = v;
    t++;
    atomic_store_explicit(&tail, t, PUB);
  }
  return 0;
}

static void *consumer(void *a) {
  (void)a;
  unsigned h = 0, tc = 0;
  for (int want = 1; want <= 3; want++) {
    if (h == tc)
      while (h == (tc = atomic_load_explicit(&tail, memory_order_acquire)))
        ;
    assert(ring[h % CAP] == want);
    h++;
    atomic_store_explicit(&head, h, memory_order_release);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, 0);
  pthread_create(&b, 0, consumer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
