// -I and -D: the lock comes from inc11/tlock.h (a ticket lock packed in
// one 32-bit word) and the sizes from -D WORKERS=... -D ROUNDS=...; the
// acquire order of the lock's spin load is TLOCK_ACQ, set here unless
// -D BUG. WORKERS threads add ROUNDS times under the lock.
// Default (run with -I inc11 -D WORKERS=3 -D ROUNDS=1): PASS under every
// model.
// -D BUG: the spin load is relaxed: the next holder's read of the total
// is not ordered after the previous holder's write: RACE under rc11 and
// imm; a lost add (FAIL) under aarch64, power, riscv; sc and x86 PASS.
#include <assert.h>
#include <pthread.h>
#ifdef BUG
#define TLOCK_ACQ memory_order_relaxed
#else
#define TLOCK_ACQ memory_order_acquire
#endif
#include "tlock.h"

static tlock_t lk;
static int total;

static void *worker(void *arg) {
  (void)arg;
  for (int r = 0; r < ROUNDS; r++) {
    tlock_acquire(&lk);
    total += 1;
    tlock_release(&lk);
  }
  return 0;
}

int main(void) {
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < WORKERS; i++)
    pthread_join(t[i], 0);
  assert(total == WORKERS * ROUNDS);
  return 0;
}
