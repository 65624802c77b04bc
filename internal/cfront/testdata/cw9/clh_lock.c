// A CLH queue lock (Craig; Landin and Hagersten): each thread swaps its
// own node into the tail and spins on its predecessor's flag; unlock
// clears its node's flag. Nodes are per-thread objects of a static
// array (no reuse). The lock guards a plain counter. Default: PASS
// everywhere. -D BUG: the unlock's store is relaxed: the next holder's
// critical section may not see the counter's update (RACE under
// rc11/imm; FAIL under aarch64, power and riscv; sc and x86: PASS).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifdef BUG
#define REL memory_order_relaxed
#else
#define REL memory_order_release
#endif

struct node {
  atomic_int locked;
};
static struct node init_node;
static struct node nodes[2];
static _Atomic(struct node *) tail = &init_node;
static int counter;

static void *worker(void *arg) {
  struct node *me = &nodes[(long)arg];
  atomic_store_explicit(&me->locked, 1, memory_order_relaxed);
  struct node *pred = atomic_exchange_explicit(&tail, me, memory_order_acq_rel);
  while (atomic_load_explicit(&pred->locked, memory_order_acquire))
    ;
  counter++;
  atomic_store_explicit(&me->locked, 0, REL);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0L);
  pthread_create(&b, 0, worker, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
