// Two threads race to take a heap object out of a slot with an atomic
// exchange; the one that gets it reads it and frees it, the other gets
// NULL and does nothing.
// Default: each thread touches the object only after its own exchange
// returned it: the object's one owner reads it before freeing it. PASS
// everywhere.
// -DBUG: each thread peeks at the object through a plain load of the
// slot before its exchange. The other thread may have taken and freed
// it by then: a use after free at the peek (line 30) under every model.
// (ASan sees it only when the scheduling puts the peek after the other
// thread's free: rarely.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct obj {
  int v;
};

static struct obj *_Atomic slot;
static atomic_int got;

static void *taker(void *arg) {
  (void)arg;
  int peek = 0;
#ifdef BUG
  struct obj *p = atomic_load_explicit(&slot, memory_order_acquire);
  if (p != NULL)
    peek = p->v;
#endif
  struct obj *o = atomic_exchange_explicit(&slot, NULL, memory_order_acq_rel);
  if (o != NULL) {
    atomic_fetch_add_explicit(&got, o->v, memory_order_relaxed);
    free(o);
  }
  assert(peek == 0 || peek == 5);
  return NULL;
}

int main(void) {
  struct obj *o = malloc(sizeof *o);
  o->v = 5;
  atomic_store_explicit(&slot, o, memory_order_release);
  pthread_t a, b;
  pthread_create(&a, NULL, taker, NULL);
  pthread_create(&b, NULL, taker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(atomic_load(&got) == 5);
  return 0;
}
