// A goto into a loop's body (Dartagnan's jumpIntoLoop shape), chosen by
// a nondeterministic bool; a worker runs the loop and adds to a shared
// atomic counter once per pass; main checks the number of passes for
// both choices. Default: PASS everywhere. -D BUG: the expected count of
// the jumping run is 4 (it is 5: the jump adds a pass): FAIL everywhere
// (the run that jumps).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

extern _Bool __VERIFIER_nondet_bool(void);

static atomic_int passes;
static int jump;

static void *worker(void *arg) {
  (void)arg;
  int i = 0;
  if (jump)
    goto inside;
  for (i = 1; i < 5; i++) {
  inside:
    atomic_fetch_add_explicit(&passes, 1, memory_order_relaxed);
  }
  return 0;
}

int main(void) {
  jump = __VERIFIER_nondet_bool();
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
#ifdef BUG
  assert(passes == 4);
#else
  assert(jump ? passes == 5 : passes == 4);
#endif
  return 0;
}
