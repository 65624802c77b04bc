// Three threads increment a shared counter with compare_exchange_weak
// loops (the expected value reloaded by each failed attempt, the new
// value recomputed from it) and record the maximum value they saw with a
// second weak-CAS loop. PASS everywhere. -DBUG: the new value is computed
// once before the loop, so a retry stores a stale increment: a lost
// update, FAIL under every model, sc included.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int counter;
atomic_int maxseen;
static void update_max(int v) {
  int cur = atomic_load_explicit(&maxseen, memory_order_relaxed);
  while (cur < v && !atomic_compare_exchange_weak_explicit(&maxseen, &cur, v, memory_order_relaxed, memory_order_relaxed))
    ;
}
void *worker(void *arg) {
  int old = atomic_load_explicit(&counter, memory_order_relaxed);
#ifdef BUG
  int desired = old + 1;
  while (!atomic_compare_exchange_weak_explicit(&counter, &old, desired, memory_order_acq_rel, memory_order_relaxed))
    ;
#else
  while (!atomic_compare_exchange_weak_explicit(&counter, &old, old + 1, memory_order_acq_rel, memory_order_relaxed))
    ;
#endif
  update_max(old + 1);
  return NULL;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  assert(atomic_load(&counter) == 3);
  assert(atomic_load(&maxseen) == 3);
  return 0;
}
