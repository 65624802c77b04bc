// memory_order_consume through two levels of pointers, as RCU readers
// walk a published table: a writer fills a record, puts its address in a
// fresh table, and publishes the table's address with a release store; a
// reader loads the table with consume, then the record pointer from the
// table (plain: carried by the dependency), then the record's fields.
// clang (and GenMC) treat consume as acquire.
// Default: PASS under every model.
// -D BUG: the table is published relaxed: under rc11 and imm the reader's
// plain reads race with the writer's plain writes (RACE); under aarch64,
// power and riscv the writer's stores may be seen after the table's
// address even though the reader's loads depend on it (FAIL); sc and x86
// PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct rec { int key, val; };
struct table { struct rec *slot; int n; };
static struct rec r;
static struct table tb;
static _Atomic(struct table *) pub;

#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

static void *writer(void *arg) {
  (void)arg;
  r.key = 7;
  r.val = 49;
  tb.slot = &r;
  tb.n = 1;
  atomic_store_explicit(&pub, &tb, PUB);
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  struct table *t = atomic_load_explicit(&pub, memory_order_consume);
  if (t) {
    struct rec *p = t->slot;
    assert(t->n == 1 && p->val == p->key * p->key);
  }
  pthread_join(w, 0);
  return 0;
}
