// SV-COMP pthread-ext style: main creates threads forever
// (while (1) pthread_create), each incrementing a shared value inside an
// atomic section and checking, in another section, that the value went
// up. No bound covers an unbounded number of threads: the honest answer
// is BOUND under sc and the targets (no failure within the bound); under
// rc11 and imm too, since every access is inside an atomic section.
// -DBUG: the check reads the value outside any section and expects it
// to be exactly one more than what the thread wrote: another thread's
// increment in between makes it FAIL under sc (and the targets), and the
// read races with the other increments under rc11 and imm (RACE).
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
unsigned value = 0;
void *thr1(void *arg) {
  unsigned v;
  __VERIFIER_atomic_begin();
  v = value;
  value = v + 1;
  __VERIFIER_atomic_end();
#ifdef BUG
  assert(value == v + 1);
#else
  __VERIFIER_atomic_begin();
  assert(value > v);
  __VERIFIER_atomic_end();
#endif
  return 0;
}
int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr1, 0);
}
