// An add-only unbalanced binary search tree (liblfds'
// btree_addonly_unbalanced): an insert walks from the root to an empty
// child pointer and links its node there with a CAS, walking on from the
// child that won when the CAS fails. Two threads insert keys 1 and 3
// under root 2; a reader looks up key 3 while they run.
// Default: release CAS, acquire loads: a node found has its key and
// value: PASS under every model.
// -D BUG: the nodes' values are written after the CAS that publishes
// them: a lookup may find the node without its value: a race under
// rc11/imm, FAIL under sc, x86, aarch64, power, riscv.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct tnode {
  int key;
  int value;
  _Atomic(struct tnode *) child[2];
};

static struct tnode root = {.key = 2, .value = 20};
static struct tnode nodes[2];

static void insert(struct tnode *n, int value) {
#ifndef BUG
  n->value = value;
#endif
  struct tnode *at = &root;
  for (;;) {
    int dir = n->key > at->key;
    struct tnode *expect = 0;
    if (atomic_compare_exchange_strong_explicit(&at->child[dir], &expect, n, memory_order_release, memory_order_acquire))
      break;
    at = expect;
  }
#ifdef BUG
  n->value = value;
#endif
}

static int lookup(int key) {
  struct tnode *at = &root;
  while (at && at->key != key)
    at = atomic_load_explicit(&at->child[key > at->key], memory_order_acquire);
  return at ? at->value : -1;
}

static void *adder(void *arg) {
  struct tnode *n = arg;
  insert(n, n->key * 10);
  return 0;
}

static void *finder(void *arg) {
  (void)arg;
  int v = lookup(3);
  assert(v == -1 || v == 30);
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  nodes[0].key = 1;
  nodes[1].key = 3;
  pthread_create(&a, 0, adder, &nodes[0]);
  pthread_create(&b, 0, adder, &nodes[1]);
  pthread_create(&c, 0, finder, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  assert(lookup(1) == 10 && lookup(3) == 30);
  return 0;
}
