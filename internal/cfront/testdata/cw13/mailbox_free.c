// A one-slot mailbox handing a malloc'd message over by atomic_exchange
// (acq_rel): the receiver takes the pointer, reads the message and
// frees it; the sender no longer owns it after the exchange.
// Default: PASS under every model.
// -D BUG: the sender reads its message's length after handing it over:
// the receiver may have freed it: FAIL "use after free" under every
// model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct msg {
  int len;
  int body;
};

static _Atomic(struct msg *) box;
static int sent_len;

static void *receiver(void *a) {
  (void)a;
  struct msg *m;
  while (!(m = atomic_exchange_explicit(&box, 0, memory_order_acq_rel)))
    ;
  assert(m->body == m->len * 2);
  free(m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, receiver, 0);
  struct msg *m = malloc(sizeof *m);
  m->len = 4;
  m->body = 8;
#ifndef BUG
  sent_len = m->len;
#endif
  atomic_exchange_explicit(&box, m, memory_order_acq_rel);
#ifdef BUG
  sent_len = m->len;
#endif
  pthread_join(t, 0);
  assert(sent_len == 4);
  return 0;
}
