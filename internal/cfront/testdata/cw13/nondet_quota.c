// SV-COMP nondeterministic inputs: a quota and two requests come from
// __VERIFIER_nondet_int, limited by __VERIFIER_assume; two threads take
// their request from a shared budget with a CAS loop that never takes
// more than is left. The budget never goes below zero.
// Default: PASS under every model (each CAS re-reads the budget).
// -D BUG: the check and the subtraction are separate (a load, then a
// fetch_sub): both threads may see enough budget: FAIL under every
// model, sc included.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

static atomic_int budget;
static int req[2];

static void *taker(void *arg) {
  int want = req[(long)arg];
#ifndef BUG
  int cur = atomic_load_explicit(&budget, memory_order_relaxed);
  while (cur >= want &&
         !atomic_compare_exchange_weak_explicit(&budget, &cur, cur - want, memory_order_acq_rel, memory_order_relaxed))
    ;
#else
  if (atomic_load_explicit(&budget, memory_order_acquire) >= want)
    atomic_fetch_sub_explicit(&budget, want, memory_order_acq_rel);
#endif
  return 0;
}

int main(void) {
  int q = __VERIFIER_nondet_int();
  __VERIFIER_assume(q >= 0 && q <= 4);
  for (int i = 0; i < 2; i++) {
    req[i] = __VERIFIER_nondet_int();
    __VERIFIER_assume(req[i] >= 1 && req[i] <= 3);
  }
  atomic_init(&budget, q);
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, taker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(atomic_load(&budget) >= 0);
  return 0;
}
