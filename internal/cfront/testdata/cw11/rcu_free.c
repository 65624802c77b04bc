// RCU-style publish and retire with a grace period, the object freed
// (not poisoned): readers enter a read-side section by raising their own
// flag, load the current record with an acquire load (rcu_dereference),
// read it and lower the flag with a release store. The updater publishes
// a new record with an exchange (seq_cst), waits until every reader's
// flag is down (a grace period: synchronize_rcu), and frees the old
// record. The reader's flag store and pointer load and the updater's
// exchange and flag loads are seq_cst: the store-buffering pair (flag,
// pointer) cannot both miss (C11's single total order S).
// Default: PASS under every model.
// -D BUG: the reader loads the pointer with acquire only (as
// rcu_dereference is written, but user-space RCU has no kernel grace
// period to make up for it): the load is not in S, so the reader may
// raise its flag too late for the updater and still read the old
// pointer: a use after free under rc11 and imm; under power (sync before
// the flag store, nothing between it and the load) and riscv (fence rw,w
// before it) the store-buffering outcome is allowed too; sc, x86 (the SC
// store is an xchg) and aarch64 (STLR then LDAR keep their order) PASS.
// The first version of this program had that load by mistake: Musket
// found it.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define READERS 2
struct cfg { int a, b; };
static _Atomic(struct cfg *) current;
static atomic_int inside[READERS];

#ifdef BUG
#define LOAD memory_order_acquire
#else
#define LOAD memory_order_seq_cst
#endif

static void *reader(void *arg) {
  int id = (int)(long)arg;
  atomic_store(&inside[id], 1);
  struct cfg *c = atomic_load_explicit(&current, LOAD);
  int a = c->a, b = c->b;
  atomic_store_explicit(&inside[id], 0, memory_order_release);
  assert(a + b == 10);
  return 0;
}

static void synchronize(void) {
  for (int i = 0; i < READERS; i++)
    while (atomic_load(&inside[i]))
      ;
}

int main(void) {
  struct cfg *c = malloc(sizeof *c);
  c->a = 3;
  c->b = 7;
  atomic_store_explicit(&current, c, memory_order_release);
  pthread_t t[READERS];
  for (long i = 0; i < READERS; i++)
    pthread_create(&t[i], 0, reader, (void *)i);
  struct cfg *n = malloc(sizeof *n);
  n->a = 4;
  n->b = 6;
  struct cfg *old = atomic_exchange(&current, n);
  synchronize();
  free(old);
  for (int i = 0; i < READERS; i++)
    pthread_join(t[i], 0);
  free(n);
  return 0;
}
