// Two claims of a slot by weak compare-and-swap loops (the first step of
// bufring_mp.c): the thread that takes slot 0 marks r0 late; the other
// fails once (it read 0 first), retries, takes slot 1 and publishes
// tail = 2 (release). A reader that sees tail == 2 (acquire) has no order
// with the first thread's r0 write: FAIL under every model. The graph
// engine's exploration under imm, aarch64 and riscv lost this execution:
// a revisit kept the second CAS's write but dropped the coin read that
// let it run (deps.go: a read-modify-write's condition is in its write's
// sctrlD now). TestWeakCASRevisit.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static int r0;
static atomic_uint head, tail;

static void *producer(void *arg) {
  (void)arg;
  unsigned h = atomic_load_explicit(&head, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(&head, &h, h + 1, memory_order_acquire,
                                                memory_order_relaxed))
    ;
  if (h == 0)
    r0 = 1;
  atomic_store_explicit(&tail, h + 1, memory_order_release);
  return 0;
}

int main(void) {
  pthread_t p1, p2;
  pthread_create(&p1, 0, producer, 0);
  pthread_create(&p2, 0, producer, 0);
  if (atomic_load_explicit(&tail, memory_order_acquire) == 2)
    assert(r0 == 1);
  return 0;
}
