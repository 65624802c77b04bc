// Store buffering, an SC fence on one side and SC accesses on the other:
// PASS under IMM (psc) and under Power (sync).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
int a, b;
static void *t1(void *p) { atomic_store_explicit(&x, 1, memory_order_relaxed); atomic_thread_fence(memory_order_seq_cst); a = atomic_load_explicit(&y, memory_order_relaxed); return 0; }
static void *t2(void *p) { atomic_store(&y, 1); b = atomic_load(&x); return 0; }
int main(void) {
  pthread_t u, v;
  pthread_create(&u, 0, t1, 0); pthread_create(&v, 0, t2, 0);
  pthread_join(u, 0); pthread_join(v, 0);
  assert(!(a == 0 && b == 0));
  return 0;
}
