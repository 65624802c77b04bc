// SV-COMP pthread-wmm "rfi" shape as plain C: each thread writes its
// flag, reads it back (a read from its own write, rfi), then reads the
// other's flag; the counters of the driver are in __VERIFIER_atomic
// sections, as the suite has them. The globals are volatile, not atomic:
// under C11 (rc11, imm) the concurrent plain accesses are a data race
// (5.1.2.4p25), R in every variant.
// Default: a full fence (__sync_synchronize) after the read-back: SB is
// forbidden: PASS under sc, x86, aarch64, power, riscv.
// -D BUG: no fence: x86-TSO lets each store wait in its buffer while the
// thread reads its own store from it and the other flag from memory:
// FAIL on x86 and every weaker target; PASS under sc.
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

static volatile int x, y;
static volatile int r0, r1, r2, r3;
static int done;

static void *p0(void *a) {
  (void)a;
  x = 1;
  r0 = x;
#ifndef BUG
  __sync_synchronize();
#endif
  r1 = y;
  __VERIFIER_atomic_begin();
  done++;
  __VERIFIER_atomic_end();
  return 0;
}

static void *p1(void *a) {
  (void)a;
  y = 1;
  r2 = y;
#ifndef BUG
  __sync_synchronize();
#endif
  r3 = x;
  __VERIFIER_atomic_begin();
  done++;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p0, 0);
  pthread_create(&b, 0, p1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __VERIFIER_atomic_begin();
  int d = done;
  __VERIFIER_atomic_end();
  assert(d != 2 || !(r0 == 1 && r1 == 0 && r2 == 1 && r3 == 0));
  return 0;
}
