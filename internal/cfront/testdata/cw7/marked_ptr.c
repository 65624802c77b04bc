// Logical deletion with a marked pointer, as in Harris's list (DISC
// 2001): a node's `next` word carries a "deleted" bit in its low bit
// (uintptr_t arithmetic on a pointer, so an aligned node). A deleter
// marks node A's next (CAS from the clean to the marked value); an
// inserter links a new node after A by CAS from A's clean next. Exactly
// an insertion is never made after a node already marked, and a mark
// is never lost (both may succeed: the insertion first).
// Default: PASS under every model.
// -DBUG: the inserter writes A's next with a plain atomic store after
// checking the mark bit (check-then-act): it may overwrite a mark the
// deleter set in between (a lost deletion): FAIL under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct node {
  int key;
  _Atomic uintptr_t next; /* struct node * | deleted bit */
};

#define MARK 1u
static struct node tail_node = {99, 0};
static struct node a = {10, 0};
static struct node fresh = {15, 0};
static atomic_int inserted, deleted;

static struct node *ptr(uintptr_t w) { return (struct node *)(w & ~(uintptr_t)MARK); }

static void *deleter(void *arg) {
  (void)arg;
  uintptr_t w = atomic_load(&a.next);
  if (!(w & MARK) && atomic_compare_exchange_strong(&a.next, &w, w | MARK))
    atomic_store(&deleted, 1);
  return 0;
}

static void *inserter(void *arg) {
  (void)arg;
  uintptr_t w = atomic_load(&a.next);
  if (w & MARK)
    return 0;
  atomic_store_explicit(&fresh.next, w, memory_order_relaxed);
#ifdef BUG
  atomic_store(&a.next, (uintptr_t)&fresh);
  atomic_store(&inserted, 1);
#else
  if (atomic_compare_exchange_strong(&a.next, &w, (uintptr_t)&fresh))
    atomic_store(&inserted, 1);
#endif
  return 0;
}

int main(void) {
  _Static_assert(_Alignof(struct node) >= 2, "a free low bit");
  atomic_store(&a.next, (uintptr_t)&tail_node);
  pthread_t x, y;
  pthread_create(&x, 0, deleter, 0);
  pthread_create(&y, 0, inserter, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  uintptr_t w = atomic_load(&a.next);
  int ins = atomic_load(&inserted), del = atomic_load(&deleted);
  if (del)
    assert(w & MARK); /* a deletion is never undone */
  if (ins)
    assert(ptr(atomic_load(&fresh.next)) == &tail_node);
  if (ins && del)
    assert(ptr(w) == &fresh); /* deleted after the insertion */
  if (ins && !del)
    assert(w == (uintptr_t)&fresh);
  if (!ins && del)
    assert(ptr(w) == &tail_node);
  return 0;
}
