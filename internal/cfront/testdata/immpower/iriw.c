// IRIW with SC accesses: forbidden by imm.cat's psc and by Power with
// the sync before each SC read: PASS under both.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
int a, b, c, d;
static void *w1(void *p) { atomic_store(&x, 1); return 0; }
static void *w2(void *p) { atomic_store(&y, 1); return 0; }
static void *r1(void *p) { a = atomic_load(&x); b = atomic_load(&y); return 0; }
static void *r2(void *p) { c = atomic_load(&y); d = atomic_load(&x); return 0; }
int main(void) {
  pthread_t t[4];
  pthread_create(&t[0], 0, w1, 0); pthread_create(&t[1], 0, w2, 0); pthread_create(&t[2], 0, r1, 0); pthread_create(&t[3], 0, r2, 0);
  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  assert(!(a == 1 && b == 0 && c == 1 && d == 0));
  return 0;
}
