// __VERIFIER_loop_bound(LB) on a loop whose trip count is known exactly
// (3 runs of its body): as Dartagnan reads it, the bound is that loop's,
// with -bound's meaning (this loop, rotated by -O1 so that its test ends
// its body, needs 3, as -bound 3 suffices when the count is not known).
// -DLB=3 or more: PASS; -DLB=2: the bound is reached (BOUND), where the
// exact count used to win silently.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef LB
#define LB 4
#endif

__attribute__((weak)) void __VERIFIER_loop_bound(int n) { (void)n; }

atomic_int sum;

void *adder(void *arg) {
  (void)arg;
  __VERIFIER_loop_bound(LB);
  for (int i = 0; i < 3; i++)
    atomic_fetch_add(&sum, 1);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, adder, 0);
  pthread_join(t, 0);
  assert(atomic_load(&sum) == 3);
  return 0;
}
