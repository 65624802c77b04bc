// A helper called in a loop, whose local is published to another thread
// for the call's duration (a rendezvous slot): each call starts a new
// lifetime of the local (C11 6.2.4p6: the block of the function body is
// entered anew).
// Default: the helper waits for the consumer's acknowledgement before it
// returns: PASS under every model.
// -D BUG: it does not wait: the consumer may read the slot after the
// call returned: FAIL, "use of the local variable msg of send after its
// lifetime ended", under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static _Atomic(int *) slot;
static atomic_int acked;

static void send(int v) {
  int msg = v;
  atomic_store_explicit(&acked, 0, memory_order_relaxed);
  atomic_store_explicit(&slot, &msg, memory_order_release);
#ifndef BUG
  while (!atomic_load_explicit(&acked, memory_order_acquire))
    ;
#endif
}

static void *consumer(void *arg) {
  (void)arg;
  for (int k = 0; k < 2; k++) {
    int *p;
    while (!(p = atomic_exchange_explicit(&slot, 0, memory_order_acquire)))
      ;
    assert(*p >= 1);
    atomic_store_explicit(&acked, 1, memory_order_release);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, consumer, 0);
  for (int i = 1; i <= 2; i++)
    send(i);
  pthread_join(t, 0);
  return 0;
}
