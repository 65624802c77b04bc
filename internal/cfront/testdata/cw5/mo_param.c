// CDSChecker style: memory orders are values. Message passing whose
// store order is a function argument and whose load order is read from
// a (non-const) global at run time, so clang emits a switch over the
// order. PASS under every model (release store, acquire load).
// -DBUG: the load order is memory_order_relaxed: the data read races
// with its write under rc11 and imm (RACE), and can read 0 on aarch64
// (FAIL); x86 and sc still PASS.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
static int data;
static atomic_int flag;
#ifdef BUG
memory_order load_mo = memory_order_relaxed;
#else
memory_order load_mo = memory_order_acquire;
#endif
static void publish(atomic_int *f, int v, memory_order mo) {
  atomic_store_explicit(f, v, mo);
}
static int observe(atomic_int *f) { return atomic_load_explicit(f, load_mo); }
static void *writer(void *arg) {
  (void)arg;
  data = 42;
  publish(&flag, 1, memory_order_release);
  return NULL;
}
static void *reader(void *arg) {
  (void)arg;
  if (observe(&flag) == 1)
    assert(data == 42);
  return NULL;
}
int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return 0;
}
