// Relaxed updates whose results are unused, read by main after the
// joins: two counters added to, a bit mask or-ed, one xor-ed. PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int a, b;
atomic_uint bits;
_Atomic long long x = 5;
void *t(void *p) {
  int id = (int)(long)p;
  atomic_fetch_add_explicit(&a, id + 1, memory_order_relaxed);
  atomic_fetch_sub_explicit(&b, 2, memory_order_relaxed);
  atomic_fetch_or_explicit(&bits, 1u << id, memory_order_relaxed);
  atomic_fetch_xor_explicit(&x, 3LL << id, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t th[3];
  for (long i = 0; i < 3; i++)
    pthread_create(&th[i], 0, t, (void *)i);
  for (int i = 0; i < 3; i++)
    pthread_join(th[i], 0);
  assert(atomic_load(&a) == 6);
  assert(atomic_load(&b) == -6);
  assert(atomic_load(&bits) == 7);
  assert(atomic_load(&x) == (5 ^ 3 ^ 6 ^ 12));
  return 0;
}
