// Mutual recursion (is_even/is_odd) and a recursive tree sum over a
// static tree, called by threads on shared values. Musket inlines
// recursion up to -bound active calls of a function; deeper is BOUND,
// never a verdict.
// The tree is three levels deep (with the NULL children), so tree_sum
// needs three active calls: -bound 3 (BOUND at -bound 2, rightly).
// Default (parity of 3, -bound 3): PASS under every model.
// -DDEEP: the parity of 7 needs four active calls of is_odd: BOUND at
// -bound 3 (PASS at -bound 4).
// -DBUG: the parity is read before the writer's value is certain (a
// relaxed flag): RACE under rc11 and imm, PASS under sc and x86, FAIL
// under aarch64, power and riscv.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef DEEP
#define DEPTH 7
#else
#define DEPTH 3
#endif

struct tree {
  int v;
  const struct tree *l, *r;
};
static const struct tree leaf1 = {1, 0, 0}, leaf2 = {2, 0, 0};
static const struct tree root = {4, &leaf1, &leaf2};

static int is_odd(int n);
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

static int tree_sum(const struct tree *t) { return t ? t->v + tree_sum(t->l) + tree_sum(t->r) : 0; }

static int value;
static atomic_int ready;

#ifdef BUG
#define ACQ memory_order_relaxed
#define REL memory_order_relaxed
#else
#define ACQ memory_order_acquire
#define REL memory_order_release
#endif

static void *writer(void *arg) {
  (void)arg;
  value = DEPTH;
  atomic_store_explicit(&ready, 1, REL);
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&ready, ACQ))
    assert(is_odd(value));
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  assert(tree_sum(&root) == 7);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
