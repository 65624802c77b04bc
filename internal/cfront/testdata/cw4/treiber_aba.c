// A Treiber stack of node indices (1..3, 0 is empty) in a static pool.
// Thread A pops: it reads the top and its successor, then CAS-es the top
// from that node to the successor. Thread B meanwhile pops two nodes and
// pushes the first back. With -DBUG the top is a bare index and A's CAS
// succeeds on the recycled top (ABA): the stack's top becomes a node B
// holds; the final check (the stack holds exactly the nodes no thread
// holds) FAILs under every model, sc included. Without BUG the top is a
// 32-bit word with a 16-bit tag bumped on every change, and A's CAS fails
// then retries: PASS everywhere. pop's retry loop uses a weak CAS (its
// failed attempts have no side effect: a spin loop, cut); push's loop
// stores the link before its CAS, so with -DWEAKPUSH (a weak CAS there)
// a spurious failure repeats the store and every path has one more
// iteration: BOUND at every -bound (GenMC treats a weak CAS as a strong
// one and answers).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef BUG
#define MAKE(i, tag) ((unsigned)(i))
#else
#define MAKE(i, tag) ((unsigned)(i) | ((unsigned)(tag) << 16))
#endif
#define TAG(w) ((w) >> 16)
#define IDX(w) ((w) & 0xffffu)
atomic_uint top;
atomic_int nxt[4];
int held[4];
static int pop(void) {
  unsigned old = atomic_load_explicit(&top, memory_order_acquire);
  for (;;) {
    unsigned i = IDX(old);
    if (i == 0)
      return 0;
    int n = atomic_load_explicit(&nxt[i], memory_order_relaxed);
    if (atomic_compare_exchange_weak_explicit(&top, &old, MAKE(n, TAG(old) + 1), memory_order_acq_rel, memory_order_acquire))
      return (int)i;
  }
}
#ifdef WEAKPUSH
#define PUSH_CAS atomic_compare_exchange_weak_explicit
#else
#define PUSH_CAS atomic_compare_exchange_strong_explicit
#endif
static void push(int i) {
  unsigned old = atomic_load_explicit(&top, memory_order_relaxed);
  do {
    atomic_store_explicit(&nxt[i], (int)IDX(old), memory_order_relaxed);
  } while (!PUSH_CAS(&top, &old, MAKE(i, TAG(old) + 1), memory_order_release, memory_order_relaxed));
}
void *ta(void *arg) {
  int i = pop();
  if (i)
    held[i] = 1;
  return NULL;
}
void *tb(void *arg) {
  int i = pop();
  int j = pop();
  if (j)
    held[j] = 1;
  if (i)
    push(i);
  return NULL;
}
int main(void) {
  // stack: 1 -> 2 -> 3
  atomic_init(&nxt[1], 2);
  atomic_init(&nxt[2], 3);
  atomic_init(&nxt[3], 0);
  atomic_init(&top, MAKE(1, 0));
  pthread_t a, b;
  pthread_create(&a, NULL, ta, NULL);
  pthread_create(&b, NULL, tb, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  int seen[4] = {0, 0, 0, 0};
  unsigned i = IDX(atomic_load(&top));
  for (int n = 0; n < 4 && i != 0; n++) {
    seen[i]++;
    i = (unsigned)atomic_load(&nxt[i]);
  }
  for (int i = 1; i < 4; i++)
    assert(seen[i] + held[i] == 1);
  return 0;
}
