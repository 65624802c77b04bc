// A flexible array member: a message `struct msg { int len; int sum;
// int data[]; }` is malloc'ed with room for its data, filled by a
// producer and published through an atomic pointer with a release
// store; the consumer takes it with an acquire load and checks its
// length, data and checksum. A second message is built in a static
// buffer (an array of ints reinterpreted as the struct).
// Default: PASS under every model.
// -DBUG: the publishing store is relaxed: the consumer's plain reads
// race with the producer's writes (RACE under rc11 and imm); sc and x86
// keep the order (PASS); aarch64, power and riscv may show the message
// before its data (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct msg {
  int len;
  int sum;
  int data[];
};

#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

static _Atomic(struct msg *) mailbox;

static void *producer(void *arg) {
  int n = (int)(long)arg;
  struct msg *m = malloc(sizeof *m + n * sizeof m->data[0]);
  m->len = n;
  m->sum = 0;
  for (int i = 0; i < n; i++) {
    m->data[i] = 10 * (i + 1);
    m->sum += m->data[i];
  }
  atomic_store_explicit(&mailbox, m, PUB);
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  struct msg *m = atomic_load_explicit(&mailbox, memory_order_acquire);
  if (m) {
    assert(m->len == 2);
    assert(m->data[0] + m->data[1] == m->sum && m->sum == 30);
  }
  return 0;
}

int main(void) {
  static int buf[4] = {2, 7, 3, 4};
  struct msg *s = (struct msg *)buf;
  assert(s->len == 2 && s->data[0] + s->data[1] == s->sum);
  pthread_t p, c;
  pthread_create(&p, 0, producer, (void *)2L);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
