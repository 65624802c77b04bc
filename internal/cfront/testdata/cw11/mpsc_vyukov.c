// Vyukov's intrusive multi-producer single-consumer queue: a producer
// exchanges the queue's head with its node (acq_rel) and then links the
// previous head's next to the node (release); the consumer follows next
// pointers from a stub with acquire loads. Two producers push one node
// each; the consumer pops until it has both (a next still null means a
// push is in flight: it waits).
// Default: PASS under every model.
// -D BUG: the link is a relaxed store: RACE under rc11 and imm (the
// consumer's read of the value is not ordered after the producer's
// write). On the targets the acq_rel exchange sits between the value's
// store and the link's: x86, power (lwsync before and after) and riscv
// (amoswap.aqrl) keep them in order (PASS), as sc; aarch64's exclusive
// pair LDAXR/STLXR orders neither store after the other (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct node { _Atomic(struct node *) next; int val; };
static struct node stub;
static struct node nodes[2];
static _Atomic(struct node *) qhead = &stub;
static struct node *qtail = &stub;

#ifdef BUG
#define LINK memory_order_relaxed
#else
#define LINK memory_order_release
#endif

static void push(struct node *n) {
  atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
  struct node *prev = atomic_exchange_explicit(&qhead, n, memory_order_acq_rel);
  atomic_store_explicit(&prev->next, n, LINK);
}

static struct node *pop(void) {
  struct node *next = atomic_load_explicit(&qtail->next, memory_order_acquire);
  if (!next)
    return NULL;
  qtail = next;
  return next;
}

static void *producer(void *arg) {
  struct node *n = arg;
  n->val = n == &nodes[0] ? 1 : 2;
  push(n);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, &nodes[0]);
  pthread_create(&b, 0, producer, &nodes[1]);
  int sum = 0;
  for (int got = 0; got < 2; got++) {
    while (!atomic_load_explicit(&qtail->next, memory_order_relaxed))
      ;
    struct node *n = pop();
    sum += n->val;
  }
  assert(sum == 3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
