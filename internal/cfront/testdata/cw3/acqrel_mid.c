// An acq_rel read-modify-write between two relaxed stores does not order
// them: C11 gives no happens-before from it (the reader's acquire fence
// reads a relaxed store), and on AArch64 the C11 mapping's exclusive pair
// (LDAXR/STLXR) orders the first store before its write and its read
// before the second store, but not the first store before the second
// (the Arm model's bob; only a single-instruction LDADDAL would). So
// the assertion can fail under rc11 and -target aarch64 (it cannot on
// x86, nor on Power where the RMW's leading lwsync orders the stores).
// -DREL (the flag stored with release): PASS everywhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef REL
#define FLAG_ORDER memory_order_release
#else
#define FLAG_ORDER memory_order_relaxed
#endif

atomic_int data, flag, cnt;

void *producer(void *arg) {
  (void)arg;
  atomic_store_explicit(&data, 42, memory_order_relaxed);
  atomic_fetch_add_explicit(&cnt, 1, memory_order_acq_rel);
  atomic_store_explicit(&flag, 1, FLAG_ORDER);
  return 0;
}

void *consumer(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&flag, memory_order_relaxed) == 1) {
    atomic_thread_fence(memory_order_acquire);
    assert(atomic_load_explicit(&data, memory_order_relaxed) == 42);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, 0);
  pthread_create(&b, 0, consumer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
