// SV-COMP pthread-wmm "safe" family, a three-thread chain (ISA2 shape)
// as plain C with volatile globals: P0 writes data then flag1, P1 waits
// for flag1 and writes flag2, P2 waits for flag2 and reads data. Plain
// volatile accesses race under C11 (R under rc11 and imm).
// Default: full fences between the accesses of each thread: PASS on
// every target.
// -D BUG: P2 has no fence between its two reads: TSO keeps reads in
// order (PASS on x86 and sc); aarch64, power and riscv may satisfy the
// read of data first (nothing orders two reads without a dependency):
// FAIL there.
#include <assert.h>
#include <pthread.h>

static volatile int data, flag1, flag2;

static void *p0(void *a) {
  (void)a;
  data = 42;
  __sync_synchronize();
  flag1 = 1;
  return 0;
}

static void *p1(void *a) {
  (void)a;
  int f = flag1;
  __sync_synchronize();
  if (f)
    flag2 = 1;
  return 0;
}

static void *p2(void *a) {
  (void)a;
  int f = flag2;
#ifndef BUG
  __sync_synchronize();
#endif
  int d = data;
  assert(!f || d == 42);
  return 0;
}

int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, p0, 0);
  pthread_create(&t[1], 0, p1, 0);
  pthread_create(&t[2], 0, p2, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
