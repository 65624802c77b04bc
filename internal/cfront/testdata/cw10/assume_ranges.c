// assume-driven nondeterminism (SV-COMP): main draws two amounts with
// __VERIFIER_nondet_int and restricts them with __VERIFIER_assume to
// 0..3; two workers withdraw them from a balance of 6 under a mutex,
// each refusing to overdraw. The balance never goes negative and what
// was withdrawn adds up. Default: PASS everywhere. -D BUG: the range is
// 0..4 and the workers do not check before withdrawing: 4 + 4 > 6: the
// balance goes negative: FAIL everywhere.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

static int balance = 6, taken;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *withdraw(void *arg) {
  int amount = (int)(long)arg;
  pthread_mutex_lock(&mu);
#ifdef BUG
  balance -= amount;
  taken += amount;
#else
  if (amount <= balance) {
    balance -= amount;
    taken += amount;
  }
#endif
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
#ifdef BUG
  __VERIFIER_assume(a >= 0 && a <= 4 && b >= 0 && b <= 4);
#else
  __VERIFIER_assume(a >= 0 && a <= 3 && b >= 0 && b <= 3);
#endif
  pthread_t x, y;
  pthread_create(&x, 0, withdraw, (void *)(long)a);
  pthread_create(&y, 0, withdraw, (void *)(long)b);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(balance >= 0 && balance + taken == 6);
  return 0;
}
