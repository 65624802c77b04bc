// SV-COMP's atomic sections: functions named __VERIFIER_atomic_* run as
// one step; two workers move tokens between two counters with such a
// function and check the total; __VERIFIER_atomic_begin/end around a
// read of both in main. Default: PASS everywhere. -D BUG: the move is an
// ordinary function (not atomic): the counters are plain, so a data race
// (RACE under rc11/imm) and a lost update (FAIL elsewhere). Natively the
// harness takes a lock in the atomic functions (NATIVE_HARNESS).
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

static int left = 10, right = 0;

#ifdef BUG
static void move(int k)
#else
static void __VERIFIER_atomic_move(int k)
#endif
{
#if defined(NATIVE_HARNESS) && !defined(BUG)
  __VERIFIER_atomic_begin();
#endif
  left -= k;
  right += k;
#if defined(NATIVE_HARNESS) && !defined(BUG)
  __VERIFIER_atomic_end();
#endif
}

static void *worker(void *arg) {
  int k = (int)(long)arg;
#ifdef BUG
  move(k);
#else
  __VERIFIER_atomic_move(k);
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)2);
  pthread_create(&b, 0, worker, (void *)3);
  __VERIFIER_atomic_begin();
  int l = left, r = right;
  __VERIFIER_atomic_end();
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(l + r == 10);
  assert(left == 5 && right == 5);
  return 0;
}
