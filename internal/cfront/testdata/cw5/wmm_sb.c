// SV-COMP pthread-wmm style: store buffering on plain ints, main waits
// for both threads by assuming a counter updated in atomic sections (no
// join), then checks that both reads did not see 0. PASS under sc; FAIL
// on x86 (TSO's store buffer) and aarch64; RACE under rc11 and imm (the
// accesses are plain).
// -DFENCE: __sync_synchronize between store and load (a full fence):
// PASS on x86 and aarch64 (still RACE under rc11: a fence does not make
// plain accesses atomic).
// -DMFENCE: an x86 asm mfence instead: PASS on x86; it has no meaning
// elsewhere.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "wmm_sb.c", 14, "reach_error"); }
void __VERIFIER_assert(int expression) {
  if (!expression) {
    reach_error();
  }
}
int __unbuffered_cnt = 0;
int __unbuffered_p0_EAX = 0;
int __unbuffered_p1_EAX = 0;
int x = 0;
int y = 0;
#if defined(FENCE)
#define MB() __sync_synchronize()
#elif defined(MFENCE)
#define MB() __asm__ __volatile__("mfence" ::: "memory")
#else
#define MB() (void)0
#endif
void *P0(void *arg) {
  x = 1;
  MB();
  __unbuffered_p0_EAX = y;
  __VERIFIER_atomic_begin();
  __unbuffered_cnt = __unbuffered_cnt + 1;
  __VERIFIER_atomic_end();
  return 0;
}
void *P1(void *arg) {
  y = 1;
  MB();
  __unbuffered_p1_EAX = x;
  __VERIFIER_atomic_begin();
  __unbuffered_cnt = __unbuffered_cnt + 1;
  __VERIFIER_atomic_end();
  return 0;
}
int main() {
  pthread_t t0, t1;
  pthread_create(&t0, 0, P0, 0);
  pthread_create(&t1, 0, P1, 0);
  __VERIFIER_atomic_begin();
  int main$tmp_guard0 = __unbuffered_cnt == 2;
  __VERIFIER_atomic_end();
  __VERIFIER_assume(main$tmp_guard0);
  __VERIFIER_atomic_begin();
  __VERIFIER_assert(!(__unbuffered_p0_EAX == 0 && __unbuffered_p1_EAX == 0));
  __VERIFIER_atomic_end();
  return 0;
}
