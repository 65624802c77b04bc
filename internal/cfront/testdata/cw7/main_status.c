// A program that reports failure through main's return value (and
// exit(1) in a helper) rather than assert, as test programs built for
// `make check` do. Musket, as GenMC and SV-COMP, checks assertions,
// reach_error and data races, not the exit status: a non-zero status is
// no violation (PASS), and exit() ends the path quietly. The -DBUG
// variant's status is non-zero on every native run; Musket says PASS
// (documented behaviour, recorded here so that it stays a decision).
// -DASSERT: the same check as an assertion: FAIL under every model
// (natively too).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int counter;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *inc(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}

static void die_if(int bad) {
  if (bad) {
    fprintf(stderr, "bad counter %d\n", counter);
    exit(1);
  }
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
#ifdef BUG
  int want = 3;
#else
  int want = 2;
#endif
#ifdef ASSERT
  assert(counter == want);
#endif
  die_if(counter != want && want == 3 && 0);
  return counter == want ? 0 : 1;
}
