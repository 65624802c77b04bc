/* In the style of SV-COMP's pthread-wmm programs: plain shared ints,
 * registers named __unbuffered_*, a counter of finished threads, an
 * assumption that all finished, '$' in identifiers and
 * __VERIFIER_atomic_begin/end around the counter. SB with a third
 * thread: under SC the outcome r0 == 0 && r1 == 0 is impossible, under
 * TSO and weaker it is reachable. */
#include <pthread.h>
extern void abort(void);
void reach_error() { }
void __VERIFIER_assume(int);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
void __VERIFIER_assert(int expression) { if (!expression) { ERROR: {reach_error();abort();} }; return; }

int __unbuffered_cnt = 0;
int __unbuffered_p0_EAX = 0;
int __unbuffered_p1_EAX = 0;
int __unbuffered_p2_EAX = 0;
int x = 0;
int y = 0;
int z = 0;
_Bool main$tmp_guard0;
_Bool main$tmp_guard1;

void *P0(void *arg)
{
  x = 1;
#ifdef FENCE
  __asm__ __volatile__("mfence" ::: "memory");
#endif
  __unbuffered_p0_EAX = y;
  __VERIFIER_atomic_begin();
  __unbuffered_cnt = __unbuffered_cnt + 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *P1(void *arg)
{
  y = 1;
#ifdef FENCE
  __asm__ __volatile__("mfence" ::: "memory");
#endif
  __unbuffered_p1_EAX = x;
  __VERIFIER_atomic_begin();
  __unbuffered_cnt = __unbuffered_cnt + 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *P2(void *arg)
{
  z = 1;
  __unbuffered_p2_EAX = z;
  __VERIFIER_atomic_begin();
  __unbuffered_cnt = __unbuffered_cnt + 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main()
{
  pthread_t t0, t1, t2;
  pthread_create(&t0, 0, P0, 0);
  pthread_create(&t1, 0, P1, 0);
  pthread_create(&t2, 0, P2, 0);
  __VERIFIER_atomic_begin();
  main$tmp_guard0 = __unbuffered_cnt == 3;
  __VERIFIER_atomic_end();
  __VERIFIER_assume(main$tmp_guard0);
  __VERIFIER_atomic_begin();
  main$tmp_guard1 = !(__unbuffered_p0_EAX == 0 && __unbuffered_p1_EAX == 0 && __unbuffered_p2_EAX == 1);
  __VERIFIER_atomic_end();
  __VERIFIER_assert(main$tmp_guard1);
  return 0;
}
