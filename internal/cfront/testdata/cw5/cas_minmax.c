// libcds style: an atomic maximum on a 16-bit unsigned and an atomic
// minimum on a 64-bit signed integer, each a compare_exchange_weak loop
// that reloads the expected value on failure; two threads. PASS.
// -DBUG: the maximum is a load then a separate store: an update can be
// lost (FAIL under every model, sc included).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
static _Atomic uint16_t hi = 0;
static _Atomic int64_t lo = INT64_MAX;
static void update_max(_Atomic uint16_t *p, uint16_t v) {
#ifdef BUG
  uint16_t cur = atomic_load_explicit(p, memory_order_relaxed);
  if (cur < v)
    atomic_store_explicit(p, v, memory_order_relaxed);
#else
  uint16_t cur = atomic_load_explicit(p, memory_order_relaxed);
  while (cur < v && !atomic_compare_exchange_weak_explicit(p, &cur, v, memory_order_relaxed, memory_order_relaxed))
    ;
#endif
}
static void update_min(_Atomic int64_t *p, int64_t v) {
  int64_t cur = atomic_load(p);
  while (v < cur && !atomic_compare_exchange_weak(p, &cur, v))
    ;
}
static void *t1(void *arg) {
  (void)arg;
  update_max(&hi, 40000);
  update_min(&lo, -((int64_t)1 << 40));
  return NULL;
}
static void *t2(void *arg) {
  (void)arg;
  update_max(&hi, 65535);
  update_min(&lo, 5);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(atomic_load(&hi) == 65535);
  assert(atomic_load(&lo) == -((int64_t)1 << 40));
  return 0;
}
