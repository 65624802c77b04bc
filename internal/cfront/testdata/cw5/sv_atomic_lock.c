// SV-COMP pthread-atomic style: a lock made of SV-COMP atomic sections
// (a function named __VERIFIER_atomic_acquire, and begin/end pairs),
// three threads entering a critical section that checks it is alone.
// PASS under every model: the sections exclude one another and order
// their accesses.
// -DBUG: acquire tests and sets the lock outside any atomic section, as
// two plain steps: two threads can both enter (FAIL under sc and the
// targets; the plain accesses race under rc11 and imm: RACE).
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
int lock = 0;
int inside = 0;
#ifdef BUG
void acquire(void) {
  while (lock != 0) {
  }
  lock = 1;
}
#else
void __VERIFIER_atomic_acquire(void) {
  __VERIFIER_assume(lock == 0);
  lock = 1;
}
#define acquire __VERIFIER_atomic_acquire
#endif
void release(void) {
  __VERIFIER_atomic_begin();
  lock = 0;
  __VERIFIER_atomic_end();
}
void *thr(void *arg) {
  (void)arg;
  acquire();
  __VERIFIER_atomic_begin();
  inside++;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  assert(inside == 1);
  inside--;
  __VERIFIER_atomic_end();
  release();
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, thr, 0);
  pthread_create(&t2, 0, thr, 0);
  pthread_create(&t3, 0, thr, 0);
  return 0;
}
