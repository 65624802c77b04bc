// Double-checked locking of a lazily built singleton: the fast path
// reads the instance pointer with an acquire load; the slow path takes a
// mutex, checks again, builds the object with malloc and publishes it
// with a release store. Three threads get the instance and check that it
// is fully built and the same for all.
// Default: PASS under every model.
// -DBUG: the fast path's load and the publishing store are relaxed: a
// thread may take the pointer before the builder's field writes are
// visible (RACE under rc11 and imm on the fields). sc and x86 keep the
// builder's stores in order (PASS). Under aarch64, power and riscv the
// reader's field loads depend on the pointer (ordered), but nothing
// orders the builder's plain stores before the relaxed store (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifdef BUG
#define FAST memory_order_relaxed
#define PUB memory_order_relaxed
#else
#define FAST memory_order_acquire
#define PUB memory_order_release
#endif

struct config {
  int magic;
  int size;
};

static _Atomic(struct config *) instance;
static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;

static struct config *get_config(void) {
  struct config *p = atomic_load_explicit(&instance, FAST);
  if (p)
    return p;
  pthread_mutex_lock(&init_mu);
  p = atomic_load_explicit(&instance, memory_order_relaxed);
  if (!p) {
    p = malloc(sizeof *p);
    p->magic = 0xC0FFEE;
    p->size = 64;
    atomic_store_explicit(&instance, p, PUB);
  }
  pthread_mutex_unlock(&init_mu);
  return p;
}

static void *user(void *arg) {
  struct config **out = arg;
  struct config *c = get_config();
  assert(c->magic == 0xC0FFEE && c->size == 64);
  *out = c;
  return 0;
}

int main(void) {
  struct config *got[3];
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, user, &got[i]);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(got[0] == got[1] && got[1] == got[2]);
  return 0;
}
