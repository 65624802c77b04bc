/* Load buffering through a fault: the thread writes null to p only after
   reading main's y = 1, which main writes after the access through p. A
   fault stops main before its write of y, so no execution reads null:
   PASS under every model, imm and aarch64 (which allow load buffering)
   too, in both engines (the graph engine refuses a replay that faults
   before an event a revisit kept: fault.go). */
#include <pthread.h>
#include <stdatomic.h>
struct n {int a, b;};
static struct n node = {1, 2};
static struct n *_Atomic p = &node;
static _Atomic int y;
static void *t(void *x) {
  if (atomic_load_explicit(&y, memory_order_relaxed) == 1)
    atomic_store_explicit(&p, (struct n *)0, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  struct n *r = atomic_load_explicit(&p, memory_order_relaxed);
  int v = r->b;
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  pthread_join(th, 0);
  return v;
}
