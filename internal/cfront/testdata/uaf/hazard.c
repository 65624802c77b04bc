// Hazard-pointer reclamation of one shared object. The reader publishes
// the pointer it is about to use in a hazard slot and checks that the
// object is still current; the updater swaps in a new object and frees
// the old one only when no hazard slot holds it (else it leaves it to
// main, which frees whatever is left at the end).
// Default: the publication and the checks are seq_cst: of the reader's
// store to the slot and the updater's swap, one is seen by the other's
// next load (no store buffering), so the reader never uses a freed
// object. PASS everywhere.
// -DBUG: release stores and acquire loads: store buffering is allowed
// (rc11, imm, x86, RISC-V): the reader validates the old object, the
// updater sees no hazard and frees it, the reader reads it: a use after
// free. FAIL, but under sc and ARMv8, whose store-release (STLR) is kept
// before a later load-acquire (LDAR) of its thread: no store buffering
// there, PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifdef BUG
#define ST memory_order_release
#define LD memory_order_acquire
#else
#define ST memory_order_seq_cst
#define LD memory_order_seq_cst
#endif

struct conf {
  int version;
};

static struct conf *_Atomic cur;
static struct conf *_Atomic hazard;
static struct conf *_Atomic retired;

static void *reader(void *arg) {
  (void)arg;
  struct conf *p;
  int tries = 0;
  do {
    p = atomic_load_explicit(&cur, LD);
    atomic_store_explicit(&hazard, p, ST);
  } while (p != atomic_load_explicit(&cur, LD) && ++tries < 2);
  if (p != atomic_load_explicit(&cur, LD))
    return NULL; /* gave up */
  int v = p->version;
  atomic_store_explicit(&hazard, NULL, memory_order_release);
  assert(v == 1 || v == 2);
  return NULL;
}

static void *updater(void *arg) {
  (void)arg;
  struct conf *n = malloc(sizeof *n);
  n->version = 2;
  struct conf *old = atomic_exchange_explicit(&cur, n, ST == memory_order_seq_cst ? memory_order_seq_cst : memory_order_acq_rel);
  if (atomic_load_explicit(&hazard, LD) != old)
    free(old);
  else
    atomic_store_explicit(&retired, old, memory_order_release);
  return NULL;
}

int main(void) {
  struct conf *c = malloc(sizeof *c);
  c->version = 1;
  atomic_store_explicit(&cur, c, memory_order_relaxed);
  pthread_t r, u;
  pthread_create(&r, NULL, reader, NULL);
  pthread_create(&u, NULL, updater, NULL);
  pthread_join(r, NULL);
  pthread_join(u, NULL);
  free(atomic_load(&retired));
  free(atomic_load(&cur));
  return 0;
}
