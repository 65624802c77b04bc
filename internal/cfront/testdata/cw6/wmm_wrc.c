// SV-COMP pthread-wmm style (the WRC shape): three threads, globals
// x, y and the __unbuffered_p*_EAX "registers" that the suite's
// generated files keep as plain globals, __unbuffered_cnt counted with
// __VERIFIER_atomic functions, and main assuming all threads done
// instead of joining. The checked property is that the outcome
// r1=1, r2=1, r3=0 of write-to-read causality is impossible: PASS under
// sc and x86 (TSO is multi-copy atomic), FAIL on aarch64 (nothing
// orders thread 2's read before its write, nor thread 3's two reads).
// Under rc11 and imm the plain accesses race.
// Under aarch64, power and riscv main's reads of the registers may also
// be satisfied before its read of __unbuffered_cnt (nothing orders a
// read after a plain read there), so main can see p2_EBX still 0.
// The atomic section that counts a thread done is a hidden lock: its
// acquire does not keep the thread's earlier register write after the
// count's write on aarch64 and riscv either (main may read the count
// and then the register's old value).
// -DFENCE: a __sync_synchronize between the accesses of threads 2 and 3,
// before each count, and in main after the assumption: PASS on the
// targets.
#include <pthread.h>
#include <assert.h>
void reach_error(void) { assert(0); }
void __VERIFIER_assume(int);
int __unbuffered_cnt = 0;
int __unbuffered_p1_EAX = 0;
int __unbuffered_p2_EAX = 0;
int __unbuffered_p2_EBX = 0;
int x = 0, y = 0;
void __VERIFIER_atomic_inc_cnt(void) { __unbuffered_cnt = __unbuffered_cnt + 1; }
void *P0(void *arg) {
  x = 1;
  __VERIFIER_atomic_inc_cnt();
  return 0;
}
void *P1(void *arg) {
  __unbuffered_p1_EAX = x;
#ifdef FENCE
  __sync_synchronize();
#endif
  y = 1;
#ifdef FENCE
  __sync_synchronize();
#endif
  __VERIFIER_atomic_inc_cnt();
  return 0;
}
void *P2(void *arg) {
  __unbuffered_p2_EAX = y;
#ifdef FENCE
  __sync_synchronize();
#endif
  __unbuffered_p2_EBX = x;
#ifdef FENCE
  __sync_synchronize();
#endif
  __VERIFIER_atomic_inc_cnt();
  return 0;
}
int main(void) {
  pthread_t t0, t1, t2;
  pthread_create(&t0, 0, P0, 0);
  pthread_create(&t1, 0, P1, 0);
  pthread_create(&t2, 0, P2, 0);
  __VERIFIER_assume(__unbuffered_cnt == 3);
#ifdef FENCE
  __sync_synchronize();
#endif
  int bad = __unbuffered_p1_EAX == 1 && __unbuffered_p2_EAX == 1 && __unbuffered_p2_EBX == 0;
  if (bad)
    reach_error();
  return 0;
}
