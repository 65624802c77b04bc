// A Treiber stack whose pop frees the node it takes. main pushes two
// nodes, two threads pop one each.
// Default: pop does not free; each popper hands its node back and main
// frees both after the joins. PASS everywhere.
// -DBUG: pop frees its node at once. The other popper may have read the
// same top and be about to read top->next (its CAS would then fail):
// that read is not ordered before the free, a use after free (the
// reason lock-free stacks need hazard pointers or epochs). FAIL under
// every model, at the read of t->next. (-DWIDEN, for native runs only,
// sleeps there so that ASan sees it.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#ifdef WIDEN
#include <unistd.h>
#endif

struct node {
  int val;
  struct node *next;
};

static struct node *_Atomic top;

static void push(int v) {
  struct node *n = malloc(sizeof *n);
  n->val = v;
  struct node *old = atomic_load_explicit(&top, memory_order_relaxed);
  do {
    n->next = old;
  } while (!atomic_compare_exchange_strong_explicit(&top, &old, n, memory_order_release, memory_order_relaxed));
}

static struct node *pop(void) {
  struct node *t = atomic_load_explicit(&top, memory_order_acquire);
  while (t != NULL) {
#ifdef WIDEN
    usleep(1000); /* native runs only: widens the window */
#endif
    struct node *nx = t->next;
    if (atomic_compare_exchange_strong_explicit(&top, &t, nx, memory_order_acquire, memory_order_acquire))
      break;
  }
  return t;
}

static void *popper(void *arg) {
  (void)arg;
  struct node *t = pop();
  int v = t ? t->val : 0;
#ifdef BUG
  free(t);
  t = NULL;
#endif
  assert(v == 0 || v == 1 || v == 2);
  return t;
}

int main(void) {
  push(1);
  push(2);
  pthread_t a, b;
  pthread_create(&a, NULL, popper, NULL);
  pthread_create(&b, NULL, popper, NULL);
  void *ra, *rb;
  pthread_join(a, &ra);
  pthread_join(b, &rb);
  free(ra);
  free(rb);
  free(atomic_load(&top));
  return 0;
}
