// Hemlock (Dice and Kogan, "Hemlock: Compact and Scalable Mutual
// Exclusion", SPAA 2021), written anew: one tail pointer per lock and one
// grant word per thread. lock: exchange the tail with my grant word's
// address; if there was a predecessor, wait until its grant equals the
// lock's address, then clear it (acknowledging). unlock: CAS the tail from
// me back to null; if that fails, a successor waits: set my grant to the
// lock's address (release) and wait until it is cleared. Three threads,
// one increment each.
// Default: PASS under every model.
// -D BUG: the hand-over (grant) store is relaxed: the successor's
// acquire load does not synchronize with it: RACE under rc11 and imm. The
// hand-over follows a failed release CAS of the tail: on aarch64 (STLXR)
// and riscv (sc.w.rl) the failed CAS wrote nothing, and nothing orders
// the counter's store before the grant's: a lost increment (FAIL); power
// PASS (clang's lwsync comes before the CAS loop and runs even when it
// fails), sc and x86 PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct lock { _Atomic(atomic_uintptr_t *) tail; };
static struct lock L;
static atomic_uintptr_t grant[3];
static int counter;

#ifdef BUG
#define GRANT memory_order_relaxed
#else
#define GRANT memory_order_release
#endif

static void lock(struct lock *l, atomic_uintptr_t *me) {
  atomic_uintptr_t *pred = atomic_exchange_explicit(&l->tail, me, memory_order_acq_rel);
  if (pred) {
    while (atomic_load_explicit(pred, memory_order_acquire) != (uintptr_t)l)
      ;
    atomic_store_explicit(pred, 0, memory_order_relaxed);
  }
}

static void unlock(struct lock *l, atomic_uintptr_t *me) {
  atomic_uintptr_t *expect = me;
  if (atomic_compare_exchange_strong_explicit(&l->tail, &expect, NULL, memory_order_release,
                                              memory_order_relaxed))
    return;
  atomic_store_explicit(me, (uintptr_t)l, GRANT);
  while (atomic_load_explicit(me, memory_order_relaxed) != 0)
    ;
}

static void *worker(void *arg) {
  atomic_uintptr_t *me = &grant[(long)arg];
  lock(&L, me);
  counter++;
  unlock(&L, me);
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(counter == 3);
  return 0;
}
