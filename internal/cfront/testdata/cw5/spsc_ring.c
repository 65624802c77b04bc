// A single-producer single-consumer ring (capacity 2) with 8-bit head
// and tail indices that wrap (uint8_t arithmetic), as embedded libraries
// write it: the producer pushes 1, 2, 3 (waiting while full), the
// consumer pops three values in order. The tail is published with a
// release store and read with acquire, the head likewise. PASS.
// -DBUG: the producer publishes the tail with a relaxed store: the slot's
// write races with its read (RACE under rc11 and imm) and the consumer
// can read a stale slot on aarch64 (FAIL); x86 and sc PASS.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
#define CAP 2
#ifdef BUG
#define PUB_MO memory_order_relaxed
#else
#define PUB_MO memory_order_release
#endif
static int slot[CAP];
static _Atomic uint8_t head, tail;
static void push(int v) {
  uint8_t t = atomic_load_explicit(&tail, memory_order_relaxed);
  while ((uint8_t)(t - atomic_load_explicit(&head, memory_order_acquire)) == CAP)
    ;
  slot[t % CAP] = v;
  atomic_store_explicit(&tail, (uint8_t)(t + 1), PUB_MO);
}
static int pop(void) {
  uint8_t h = atomic_load_explicit(&head, memory_order_relaxed);
  while (atomic_load_explicit(&tail, memory_order_acquire) == h)
    ;
  int v = slot[h % CAP];
  atomic_store_explicit(&head, (uint8_t)(h + 1), memory_order_release);
  return v;
}
static void *producer(void *arg) {
  for (int i = 1; i <= 3; i++)
    push(i);
  return arg;
}
static void *consumer(void *arg) {
  for (int i = 1; i <= 3; i++)
    assert(pop() == i);
  return arg;
}
int main(void) {
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return 0;
}
