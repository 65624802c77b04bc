// atexit in a constructor and in a loop. The constructor registers
// report (so it runs after every handler main registers); main
// registers release once per slot in a loop of NSLOT iterations (its
// count read from a volatile: unrolled to -bound); each release frees one slot of a
// pool and report checks that all were freed. Workers take slots
// from the pool with a compare-and-swap.
// Default (NSLOT 1): PASS under every model (native: never fails).
// -DNSLOT=5: five registrations from one call of atexit in the code:
//   the loop and the slots Musket keeps (one per atexit call in the
//   code and iteration within the bound) need a larger bound: BOUND
//   under every model at -bound 2 (no verdict claimed); at -bound 4,
//   PASS (clang's loop rotation: the body runs bound+1 times).
// -DBUG: report is registered by main after release (not by the
//   constructor), so it runs first and sees the slot still taken: FAIL
//   under every model (native: always).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifndef NSLOT
#define NSLOT 1
#endif

static volatile int nslot = NSLOT; /* not a constant: not unrolled by clang */
static atomic_int taken;
static int released;

static void release(void) {
  atomic_fetch_sub(&taken, 1);
  released++;
}

static void report(void) {
  assert(released == NSLOT);
  /* two workers took min(2, NSLOT) slots; every release gave one back */
  assert(atomic_load(&taken) == (NSLOT < 2 ? NSLOT : 2) - NSLOT);
}

#ifndef BUG
__attribute__((constructor)) static void setup(void) { atexit(report); }
#endif

static void *worker(void *arg) {
  (void)arg;
  int v = atomic_load(&taken);
  while (v < NSLOT && !atomic_compare_exchange_weak(&taken, &v, v + 1)) {
  }
  return 0;
}

int main(void) {
  for (int i = 0; i < nslot; i++) {
    atexit(release);
  }
#ifdef BUG
  atexit(report);
#endif
  pthread_t t[2];
  for (int i = 0; i < 2; i++) {
    pthread_create(&t[i], 0, worker, 0);
  }
  for (int i = 0; i < 2; i++) {
    pthread_join(t[i], 0);
  }
  return 0;
}
