// Integer intrinsics of -O1 (llvm.abs, select on unsigned comparisons).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
atomic_int x;
int r;
void *t(void *a) { atomic_store_explicit(&x, -3, memory_order_relaxed); return NULL; }
int main(void) {
  pthread_t p;
  pthread_create(&p, NULL, t, NULL);
  pthread_join(p, NULL);
  int v = atomic_load_explicit(&x, memory_order_relaxed);
  int m = v > 2 ? v : 2;
  unsigned u = (unsigned)v < 5u ? (unsigned)v : 5u;
  assert(m == 2 && abs(v) == 3 && u == 5);
  return 0;
}
