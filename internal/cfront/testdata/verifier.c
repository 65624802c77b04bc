// SV-COMP conventions: arbitrary values, assumptions, __VERIFIER_assert.
#include <pthread.h>
#include <stdatomic.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

atomic_int x;

void *t1(void *arg) {
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v > 0 && v < 10);
  atomic_store_explicit(&x, v, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, t1, NULL);
  pthread_join(t, NULL);
  int r = atomic_load_explicit(&x, memory_order_relaxed);
  __VERIFIER_assert(r >= 1 && r <= 9);
  __VERIFIER_assert(r != 7);
  return 0;
}
