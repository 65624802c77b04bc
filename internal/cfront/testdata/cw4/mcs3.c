// An MCS queue lock, three threads, one queue node per thread in an
// array; each thread takes the lock once around a plain counter. lock:
// swap the tail (acq_rel), link behind the predecessor (release), spin on
// its own node (acquire). unlock: hand over to the successor, or swing
// the tail back to NULL by compare-and-swap. PASS everywhere. -DBUG: the
// hand-over store is relaxed: RACE under rc11/imm, FAIL at the final
// assertion under aarch64, power, riscv; PASS under sc and x86.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#ifdef BUG
#define HANDOVER memory_order_relaxed
#else
#define HANDOVER memory_order_release
#endif
struct qnode {
  _Atomic(struct qnode *) next;
  atomic_int locked;
};
_Atomic(struct qnode *) tail;
struct qnode nodes[3];
int counter;
static void lock(struct qnode *n) {
  atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
  atomic_store_explicit(&n->locked, 1, memory_order_relaxed);
  struct qnode *prev = atomic_exchange_explicit(&tail, n, memory_order_acq_rel);
  if (prev != NULL) {
    atomic_store_explicit(&prev->next, n, memory_order_release);
    while (atomic_load_explicit(&n->locked, memory_order_acquire))
      ;
  }
}
static void unlock(struct qnode *n) {
  struct qnode *succ = atomic_load_explicit(&n->next, memory_order_acquire);
  if (succ == NULL) {
    struct qnode *expected = n;
    if (atomic_compare_exchange_strong_explicit(&tail, &expected, NULL, memory_order_release, memory_order_relaxed))
      return;
    while ((succ = atomic_load_explicit(&n->next, memory_order_acquire)) == NULL)
      ;
  }
  atomic_store_explicit(&succ->locked, 0, HANDOVER);
}
void *worker(void *arg) {
  struct qnode *me = arg;
  lock(me);
  counter++;
  unlock(me);
  return NULL;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, worker, &nodes[i]);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  assert(counter == 3);
  return 0;
}
