// An MCS queue lock whose queue node is a local of the loop body
// (each acquisition declares its own node: the usual way to use it).
// Each entry into the body starts a new lifetime of the node (C11
// 6.2.4p6), so a successor may write into its predecessor's node only
// while the predecessor's iteration is running.
// Default: unlock waits for a successor that swapped itself in to link
// itself before handing over: PASS under every model.
// -D BUG: unlock gives up when its CAS fails without waiting for the
// link: the successor writes pred->next after the predecessor's
// iteration ended (and it then waits forever for the hand-over): FAIL
// "use of the local variable me of worker after its lifetime ended".
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct qnode {
  _Atomic(struct qnode *) next;
  atomic_int locked;
};

static _Atomic(struct qnode *) tail;
static int counter;

static void lock(struct qnode *me) {
  atomic_store_explicit(&me->next, NULL, memory_order_relaxed);
  atomic_store_explicit(&me->locked, 1, memory_order_relaxed);
  struct qnode *pred = atomic_exchange_explicit(&tail, me, memory_order_acq_rel);
  if (pred) {
    atomic_store_explicit(&pred->next, me, memory_order_release);
    while (atomic_load_explicit(&me->locked, memory_order_acquire))
      ;
  }
}

static void unlock(struct qnode *me) {
  struct qnode *succ = atomic_load_explicit(&me->next, memory_order_acquire);
  if (!succ) {
    struct qnode *expect = me;
    if (atomic_compare_exchange_strong_explicit(&tail, &expect, NULL, memory_order_acq_rel, memory_order_relaxed))
      return;
#ifdef BUG
    return;
#endif
    while (!(succ = atomic_load_explicit(&me->next, memory_order_acquire)))
      ;
  }
  atomic_store_explicit(&succ->locked, 0, memory_order_release);
}

static void *worker(void *a) {
  (void)a;
  for (int k = 0; k < 2; k++) {
    struct qnode me;
    lock(&me);
    counter++;
    unlock(&me);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 4);
  return 0;
}
