// Atomics on array elements reached through pointers: each thread gets
// a pointer into an array of atomic counters (&ctr[i], then p + 1 and
// p[-1] by pointer arithmetic) and a pointer-to-pointer; a work item is
// handed over with atomic_exchange on an _Atomic pointer (the taker
// swaps in NULL, the giver swaps in the item and checks what it got
// back). PASS everywhere.
// -DBUG: the taker reads the item's payload without acquire (relaxed
// exchange): RACE under rc11 and imm, FAIL on aarch64, PASS under sc and
// x86.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stddef.h>
#ifdef BUG
#define XMO memory_order_relaxed
#else
#define XMO memory_order_acq_rel
#endif
struct item {
  int payload;
};
static atomic_int ctr[4];
static struct item box;
static struct item *_Atomic mailbox;
static void *giver(void *arg) {
  atomic_int *p = arg;
  atomic_fetch_add_explicit(p, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(p + 1, 2, memory_order_relaxed);
  box.payload = 77;
  struct item *prev = atomic_exchange_explicit(&mailbox, &box, XMO);
  assert(prev == NULL);
  return NULL;
}
static void *taker(void *arg) {
  atomic_int **pp = arg;
  atomic_int *p = *pp;
  atomic_fetch_add_explicit(&p[-1], 4, memory_order_relaxed);
  struct item *it;
  while ((it = atomic_exchange_explicit(&mailbox, NULL, XMO)) == NULL)
    ;
  assert(it->payload == 77);
  return NULL;
}
int main(void) {
  pthread_t g, t;
  atomic_int *third = &ctr[3];
  pthread_create(&g, NULL, giver, &ctr[1]);
  pthread_create(&t, NULL, taker, &third);
  pthread_join(g, NULL);
  pthread_join(t, NULL);
  assert(atomic_load(&ctr[1]) == 1 && atomic_load(&ctr[2]) == 6 && atomic_load(&ctr[0]) == 0);
  assert(atomic_load(&mailbox) == NULL);
  return 0;
}
