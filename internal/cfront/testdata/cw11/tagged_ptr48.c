// A pointer with a 16-bit tag in its top bits (x86-64 and AArch64 user
// addresses fit in 48 bits), as lock-free stacks count ABA: the top word
// is a uint64_t holding (tag << 48) | address; pop swaps it by CAS to the
// next node with the tag incremented. Two threads pop one node each from
// a three-node stack; afterwards the third node is on top with tag 2.
// Musket's pointers are an object and an offset, not bits: the mask that
// takes the address back out of the word is refused by name (every cell,
// both variants). Natively 0/100 for both (the BUG's double pop of one
// node needs a narrow window).
// Default: PASS natively.
// -D BUG: pop writes the new top with a store after a load (no CAS): both
// threads may pop the same node: a FAIL is possible.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct node { struct node *next; int val; };
static struct node n3 = {0, 3}, n2 = {&n3, 2}, n1 = {&n2, 1};
static _Atomic uint64_t top;
static int popped[2];

#define ADDR(w) ((struct node *)(uintptr_t)((w) & ((1ull << 48) - 1)))
#define TAG(w) ((w) >> 48)
#define MAKE(p, t) (((uint64_t)(t) << 48) | (uint64_t)(uintptr_t)(p))

static int pop(void) {
  uint64_t old = atomic_load(&top);
  for (;;) {
    struct node *n = ADDR(old);
    uint64_t nw = MAKE(n->next, TAG(old) + 1);
#ifdef BUG
    atomic_store(&top, nw);
    return n->val;
#else
    if (atomic_compare_exchange_weak(&top, &old, nw))
      return n->val;
#endif
  }
}

static void *w(void *arg) {
  popped[(long)arg] = pop();
  return 0;
}

int main(void) {
  atomic_store(&top, MAKE(&n1, 0));
  pthread_t a, b;
  pthread_create(&a, 0, w, (void *)0L);
  pthread_create(&b, 0, w, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  uint64_t t = atomic_load(&top);
  assert(ADDR(t) == &n3 && TAG(t) == 2);
  assert(popped[0] + popped[1] == 3);
  return 0;
}
