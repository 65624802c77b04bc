// An add-only ordered singly-linked list (liblfds'
// list_addonly_singlylinked_ordered): nodes come from a static pool; an
// insert finds the first node whose key is not smaller and links the new
// node before it with a CAS on the predecessor's next, retrying from the
// head when the CAS fails. Two threads fill a node each (keys 2 and 1)
// and insert it into {0, 3}; main walks the list meanwhile.
// Default: the new node's key and next are written before the release
// CAS publishes it, the walk's loads are acquire: the list is 0 1 2 3:
// PASS under every model.
// -D BUG: the CAS is relaxed: a walker (main, or the other inserter)
// may read the new node's key before it was written: a race under
// rc11/imm; sc, x86 PASS; aarch64, power, riscv FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

struct node {
  int key;
  _Atomic(struct node *) next;
};

static struct node pool[4];
static struct node tail = {.key = 3};
static struct node head = {.key = 0};

static void insert(struct node *n) {
  for (;;) {
    struct node *pred = &head;
    struct node *cur = atomic_load_explicit(&pred->next, memory_order_acquire);
    while (cur && cur->key < n->key) {
      pred = cur;
      cur = atomic_load_explicit(&cur->next, memory_order_acquire);
    }
    atomic_store_explicit(&n->next, cur, memory_order_relaxed);
    if (atomic_compare_exchange_strong_explicit(&pred->next, &cur, n, PUB, memory_order_relaxed))
      return;
  }
}

static void *adder(void *arg) {
  int i = (int)(long)arg;
  struct node *n = &pool[i];
  n->key = 2 - i;
  insert(n);
  return 0;
}

int main(void) {
  pthread_t a, b;
  atomic_init(&head.next, &tail);
  pthread_create(&a, 0, adder, (void *)0);
  pthread_create(&b, 0, adder, (void *)1);
  // Walk while they insert: the keys met are increasing.
  int last = -1;
  for (struct node *c = &head; c; c = atomic_load_explicit(&c->next, memory_order_acquire)) {
    assert(c->key > last);
    last = c->key;
  }
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
