// Dartagnan's per-loop bound: __VERIFIER_loop_bound(n) is the bound of
// the next loop of the code, meaning what -bound n means for it (a loop
// whose body runs k times needs k+1). The first loop runs its body 6
// times and has bound 7; the second runs 3 times and is left at -bound
// (TestSemantics: PASS at -bound 4, where without the annotation the
// first loop would say BOUND; BOUND at -bound 3, from the second loop).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

// Defined for the native run; Musket lowers the call by its name.
// Weak: clang -O1 would inline (drop) a call to an empty definition.
__attribute__((weak)) void __VERIFIER_loop_bound(int n) { (void)n; }

atomic_int x = 0, n = 5, m = 2;

void *t(void *arg) {
  (void)arg;
  return 0;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  int i = 0;
  __VERIFIER_loop_bound(7);
  while (i <= atomic_load(&n)) // 6 runs: n is read, the count unknown
    i++;
  int j = 0;
  while (j <= atomic_load(&m)) // 3 runs
    j++;
  pthread_join(id, 0);
  assert(i == 6 && j == 3);
  return 0;
}
