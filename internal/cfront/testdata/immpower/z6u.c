// Z6.U of Lahav et al., "Repairing Sequential Consistency in C/C++11"
// (PLDI 2017): RC11's psc (imm.cat's sc axiom) allows the outcome, as
// Power with the leading-sync mapping does: FAIL under both.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
int A, B, C;
static void *t1(void *p) { atomic_store(&x, 1); atomic_store_explicit(&y, 1, memory_order_release); return 0; }
static void *t2(void *p) { B = atomic_fetch_add(&y, 1); C = atomic_load_explicit(&y, memory_order_relaxed); return 0; }
static void *t3(void *p) { atomic_store(&y, 3); A = atomic_load(&x); return 0; }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); pthread_create(&c, 0, t3, 0);
  pthread_join(a, 0); pthread_join(b, 0); pthread_join(c, 0);
  assert(!(B == 1 && C == 3 && A == 0));
  return 0;
}
