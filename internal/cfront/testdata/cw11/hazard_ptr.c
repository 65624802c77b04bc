// Hazard pointers (Michael, "Hazard Pointers: Safe Memory Reclamation
// for Lock-Free Objects", IEEE TPDS 2004), one reader and one reclaimer.
// The reader protects the current node: it loads the head, publishes the
// pointer in its hazard slot, and re-reads the head until it is the same
// (so the node was current after the hazard was visible); it then reads
// the node. The reclaimer swings the head to a new node and frees the old
// one only if no hazard slot holds it (otherwise it keeps it: a leak).
// Hazard store and head re-read, head exchange and hazard scan are
// seq_cst: the store-buffering pair (hazard, head) cannot both miss.
// Default: PASS under every model.
// -D BUG: the hazard store and the scan are relaxed (the exchange
// acq_rel, so b is still published), with no fence: the
// reader may validate an old head the reclaimer has already freed
// (store buffering): the reader's read is a use after free under rc11,
// imm, x86 (store buffering is x86's one reordering), aarch64, power,
// riscv; sc keeps the order (PASS).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node { int val; };
static _Atomic(struct node *) head;
static _Atomic(struct node *) hazard;

#ifdef BUG
#define HZ memory_order_relaxed
#define XCHG memory_order_acq_rel
#else
#define HZ memory_order_seq_cst
#define XCHG memory_order_seq_cst
#endif

static void *reader(void *arg) {
  (void)arg;
  struct node *p;
  for (;;) {
    p = atomic_load_explicit(&head, memory_order_acquire);
    atomic_store_explicit(&hazard, p, HZ);
    if (atomic_load_explicit(&head, HZ) == p)
      break;
  }
  int v = p->val;
  assert(v == 1 || v == 2);
  atomic_store_explicit(&hazard, NULL, memory_order_release);
  return 0;
}

int main(void) {
  struct node *a = malloc(sizeof *a);
  a->val = 1;
  atomic_store_explicit(&head, a, memory_order_release);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  struct node *b = malloc(sizeof *b);
  b->val = 2;
  struct node *old = atomic_exchange_explicit(&head, b, XCHG);
  if (atomic_load_explicit(&hazard, HZ) != old)
    free(old);
  pthread_join(t, 0);
  return 0;
}
