// RCU-style publication: a writer fills a heap-free record and publishes
// its address with a release store (rcu_assign_pointer); two readers
// load the pointer with memory_order_consume (rcu_dereference) and read
// the record through it. PASS everywhere. -DBUG: the pointer is
// published relaxed: RACE under rc11/imm; FAIL under aarch64, power,
// riscv (the record's stores may be seen after the pointer's); PASS under
// sc and x86. -DDEP (without BUG): the readers load the pointer relaxed
// and rely on the address dependency alone: RACE under rc11/imm (C11
// gives dependencies no order), PASS under aarch64, power, riscv (an
// address dependency orders the two loads), sc and x86.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif
#ifdef DEP
#define DEREF memory_order_relaxed
#else
#define DEREF memory_order_consume
#endif
struct config {
  int a;
  int b;
};
struct config cfg;
_Atomic(struct config *) current;
void *writer(void *arg) {
  cfg.a = 1;
  cfg.b = 2;
  atomic_store_explicit(&current, &cfg, PUB);
  return NULL;
}
void *reader(void *arg) {
  struct config *c = atomic_load_explicit(&current, DEREF);
  if (c != NULL)
    assert(c->a + c->b == 3);
  return NULL;
}
int main(void) {
  pthread_t w, r[2];
  pthread_create(&w, NULL, writer, NULL);
  for (int i = 0; i < 2; i++)
    pthread_create(&r[i], NULL, reader, NULL);
  pthread_join(w, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(r[i], NULL);
  return 0;
}
