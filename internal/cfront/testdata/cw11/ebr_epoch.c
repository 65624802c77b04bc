// Epoch-based reclamation (Fraser, "Practical lock-freedom", Cambridge
// TR 579, 2004), one reader, one reclaimer. The reader announces the
// global epoch it saw (seq_cst store) and re-checks it, then reads the
// shared object; afterwards it leaves (announce -1, release). The
// reclaimer unlinks the object, advances the epoch, and frees the
// unlinked object once the reader is either outside (-1) or announced
// the new epoch (it started after the unlink).
// Default: PASS under every model.
// -D BUG: the reclaimer frees without looking at the announcement:
// the reader's read may be a use after free: FAIL under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct obj { int v; };
static _Atomic(struct obj *) shared;
static atomic_int epoch;
static atomic_int announce = -1;

static void *reader(void *arg) {
  (void)arg;
  int e;
  do {
    e = atomic_load(&epoch);
    atomic_store(&announce, e);
  } while (atomic_load(&epoch) != e);
  struct obj *o = atomic_load_explicit(&shared, memory_order_acquire);
  if (o)
    assert(o->v == 5);
  atomic_store_explicit(&announce, -1, memory_order_release);
  return 0;
}

int main(void) {
  struct obj *o = malloc(sizeof *o);
  o->v = 5;
  atomic_store_explicit(&shared, o, memory_order_release);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  struct obj *old = atomic_exchange(&shared, NULL);
  atomic_fetch_add(&epoch, 1);
#ifndef BUG
  for (;;) {
    int a = atomic_load(&announce);
    if (a == -1 || a == 1)
      break;
  }
#endif
  free(old);
  pthread_join(t, 0);
  return 0;
}
