// A single-producer single-consumer ring of 2 slots (the DIVINE suite's
// ring shape): head and tail are atomics, the slots plain; the producer
// waits for room, writes a slot, publishes the new tail with release;
// the consumer waits for data with acquire, reads, frees the slot with a
// release of head. Three items go through. Default: PASS everywhere.
// -D BUG: the consumer frees the slot (head) before reading it: the
// producer may overwrite it: RACE under rc11/imm; FAIL elsewhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define SLOTS 2
static int ring[SLOTS];
static atomic_uint head, tail;

static void *producer(void *arg) {
  (void)arg;
  for (unsigned i = 0; i < 3; i++) {
    unsigned t = atomic_load_explicit(&tail, memory_order_relaxed);
    while (t - atomic_load_explicit(&head, memory_order_acquire) == SLOTS)
      ;
    ring[t % SLOTS] = 10 + i;
    atomic_store_explicit(&tail, t + 1, memory_order_release);
  }
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, producer, 0);
  for (unsigned i = 0; i < 3; i++) {
    unsigned h = atomic_load_explicit(&head, memory_order_relaxed);
    while (atomic_load_explicit(&tail, memory_order_acquire) == h)
      ;
#ifdef BUG
    atomic_store_explicit(&head, h + 1, memory_order_release);
    int v = ring[h % SLOTS];
#else
    int v = ring[h % SLOTS];
    atomic_store_explicit(&head, h + 1, memory_order_release);
#endif
    assert(v == (int)(10 + i));
  }
  pthread_join(p, 0);
  return 0;
}
