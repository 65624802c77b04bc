// A single-producer single-consumer ring whose indices are relaxed
// atomics, ordered by explicit fences instead of release/acquire
// accesses (C11 7.17.4: a release fence before the index store and an
// acquire fence after the index load synchronize). The consumer also
// frees the slot with a release fence before moving head, so the
// producer's reuse of the slot comes after the read. Three items, two
// slots.
// Default: PASS under every model.
// -D BUG: the consumer's acquire fence is placed before its index load
// instead of after it: nothing orders the slot read after the index read
// (RACE under rc11 and imm; FAIL under aarch64, power, riscv; sc and x86
// PASS).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define SLOTS 2
static int buf[SLOTS];
static atomic_uint head, tail;

static void *producer(void *arg) {
  (void)arg;
  for (unsigned i = 0; i < 3; i++) {
    while (i - atomic_load_explicit(&head, memory_order_relaxed) == SLOTS)
      ;
    atomic_thread_fence(memory_order_acquire);
    buf[i % SLOTS] = 100 + i;
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&tail, i + 1, memory_order_relaxed);
  }
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, producer, 0);
  for (unsigned i = 0; i < 3; i++) {
#ifdef BUG
    atomic_thread_fence(memory_order_acquire);
    while (atomic_load_explicit(&tail, memory_order_relaxed) == i)
      ;
#else
    while (atomic_load_explicit(&tail, memory_order_relaxed) == i)
      ;
    atomic_thread_fence(memory_order_acquire);
#endif
    int v = buf[i % SLOTS];
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&head, i + 1, memory_order_relaxed);
    assert(v == (int)(100 + i));
  }
  pthread_join(p, 0);
  return 0;
}
