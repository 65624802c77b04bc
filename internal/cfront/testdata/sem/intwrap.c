// Integer arithmetic wraps at its width: operands and expected results
// are stored by a thread and loaded after the join, so no compiler and no
// engine folds them (the SMT engine sees each load as a choice of write).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
_Atomic uint8_t u8a, u8b, u8r;
_Atomic uint32_t u32a, u32r;
_Atomic int8_t i8a, i8b, i8r;
_Atomic uint64_t u64a, u64r;
void *writer(void *arg) {
  atomic_store_explicit(&u8a, 1, memory_order_relaxed);
  atomic_store_explicit(&u8b, 255, memory_order_relaxed);
  atomic_store_explicit(&u8r, 0, memory_order_relaxed);
  atomic_store_explicit(&u32a, 0x7fffffffu, memory_order_relaxed);
  atomic_store_explicit(&u32r, 0x80000000u, memory_order_relaxed);
  atomic_store_explicit(&i8a, -56, memory_order_relaxed);
  atomic_store_explicit(&i8b, -1, memory_order_relaxed);
  atomic_store_explicit(&i8r, -56, memory_order_relaxed);
  atomic_store_explicit(&u64a, 0xffffffffffffffffull, memory_order_relaxed);
  atomic_store_explicit(&u64r, 0x7fffffffffffffffull, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t p;
  pthread_create(&p, 0, writer, 0);
  pthread_join(p, 0);
  uint8_t a = atomic_load_explicit(&u8a, memory_order_relaxed), b = atomic_load_explicit(&u8b, memory_order_relaxed);
  assert((uint8_t)(a + b) == atomic_load_explicit(&u8r, memory_order_relaxed));
  uint32_t w = atomic_load_explicit(&u32a, memory_order_relaxed);
  assert(w + 1 == atomic_load_explicit(&u32r, memory_order_relaxed));
  int8_t c = atomic_load_explicit(&i8a, memory_order_relaxed), d = atomic_load_explicit(&i8b, memory_order_relaxed);
  assert((int8_t)(c & d) == atomic_load_explicit(&i8r, memory_order_relaxed));
  uint64_t u = atomic_load_explicit(&u64a, memory_order_relaxed);
  assert(u / 2 == atomic_load_explicit(&u64r, memory_order_relaxed));
  return 0;
}
