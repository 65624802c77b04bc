// A kernel-style lock-free stack (llist): push links a node with
// smp_store_release-like CAS (a strong compare-exchange on a pointer
// whose success and failure orders are function parameters), the
// consumer takes the whole list at once with an exchange, then reads
// every node's payload. Each producer counts its pushes in a __thread
// counter and folds it into 8- and 16-bit atomic masks (fetch_or,
// fetch_xor, fetch_and) with orders held in a const table.
// smp_load_acquire/smp_store_release are the program's own macros over
// GCC __atomic builtins. PASS under every model.
// -DBUG: push's CAS succeeds with memory_order_relaxed: the consumer's
// reads of a node's payload race with their writes (RACE under rc11
// and imm) and can read 0 on aarch64 (FAIL); x86 and sc PASS.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
struct node {
  int payload;
  struct node *next;
};
static _Atomic(struct node *) head;
static _Atomic uint8_t seen8;
static _Atomic uint16_t mask16 = 0xFFFF;
static int done;
static __thread int pushes;
static const memory_order orders[] = {memory_order_relaxed, memory_order_release, memory_order_acq_rel};
#ifdef BUG
#define PUSH_MO orders[0]
#else
#define PUSH_MO orders[1]
#endif
static void push(struct node *n, memory_order ok, memory_order fail) {
  struct node *old = atomic_load_explicit(&head, memory_order_relaxed);
  do {
    n->next = old;
  } while (!atomic_compare_exchange_strong_explicit(&head, &old, n, ok, fail));
  pushes++;
}
static void *producer(void *arg) {
  int id = (int)(intptr_t)arg;
  struct node *n = malloc(sizeof *n);
  n->payload = id + 1;
  push(n, PUSH_MO, memory_order_relaxed);
  atomic_fetch_or_explicit(&seen8, (uint8_t)(pushes << id), orders[2]);
  atomic_fetch_xor_explicit(&mask16, (uint16_t)(0x0101 << id), orders[0]);
  atomic_fetch_and_explicit(&mask16, (uint16_t)~(0x1000 << id), orders[0]);
  return NULL;
}
static void *consumer(void *arg) {
  (void)arg;
  struct node *l = atomic_exchange_explicit(&head, NULL, memory_order_acquire);
  for (struct node *p = l; p; p = p->next)
    assert(p->payload == 1 || p->payload == 2);
  smp_store_release(&done, 1);
  return NULL;
}
int main(void) {
  pthread_t p0, p1, c;
  pthread_create(&p0, NULL, producer, (void *)(intptr_t)0);
  pthread_create(&p1, NULL, producer, (void *)(intptr_t)1);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p0, NULL);
  pthread_join(p1, NULL);
  pthread_join(c, NULL);
  assert(smp_load_acquire(&done) == 1);
  assert(atomic_load(&seen8) == 3);
  assert(atomic_load(&mask16) == (uint16_t)((0xFFFF ^ 0x0101 ^ 0x0202) & ~0x3000));
  assert(pushes == 0);
  return 0;
}
