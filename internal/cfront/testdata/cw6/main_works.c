// main works while its threads run: it produces two values into a
// one-slot mailbox (release stores of a sequence number), a worker
// consumes them, and a second worker polls a stop flag that main sets
// after its own computation; main joins last. PASS everywhere.
// -DBUG: main publishes the second value without waiting for the
// consumer to take the first (the slot is overwritten): FAIL under every
// model, RACE first under rc11 and imm (the slot's plain accesses).
// Natively the consumer usually misses the first value and waits forever
// (a hang, which Musket cuts as a wait: no verdict of its own).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
static int slot;
static atomic_int seq, taken, stop;
static int got[2];
static void *consumer(void *arg) {
  (void)arg;
  for (int i = 1; i <= 2; i++) {
    while (atomic_load_explicit(&seq, memory_order_acquire) != i)
      ;
    got[i - 1] = slot;
    atomic_store_explicit(&taken, i, memory_order_release);
  }
  return NULL;
}
static void *poller(void *arg) {
  int *out = arg;
  while (!atomic_load_explicit(&stop, memory_order_acquire))
    ;
  *out = 1;
  return NULL;
}
int main(void) {
  pthread_t c, p;
  int polled = 0;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, poller, &polled);
  int acc = 0;
  for (int i = 1; i <= 2; i++) {
#ifndef BUG
    while (atomic_load_explicit(&taken, memory_order_acquire) != i - 1)
      ;
#endif
    acc += i * 5;
    slot = acc;
    atomic_store_explicit(&seq, i, memory_order_release);
  }
  atomic_store_explicit(&stop, 1, memory_order_release);
  pthread_join(c, NULL);
  pthread_join(p, NULL);
  assert(got[0] == 5 && got[1] == 15);
  assert(polled == 1);
  return 0;
}
