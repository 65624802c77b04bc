// RWC with a release write: IMM allows the outcome (FAIL), Power with
// the sync before the SC accesses does not (PASS): IMM's FAIL is not
// taken for Power.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
int a, b, c;
static void *t1(void *p) { atomic_store_explicit(&x, 1, memory_order_release); return 0; }
static void *t2(void *p) { a = atomic_load(&x); b = atomic_load(&y); return 0; }
static void *t3(void *p) { atomic_store(&y, 1); c = atomic_load(&x); return 0; }
int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, t1, 0); pthread_create(&t[1], 0, t2, 0); pthread_create(&t[2], 0, t3, 0);
  for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
  assert(!(a == 1 && b == 0 && c == 0));
  return 0;
}
