// A Michael-Scott queue over a static node pool with a dummy head: two
// enqueuers put one value each, one dequeuer takes up to two. Links and
// the tail swing by compare-and-swap (release on the link, acquire on
// the reads); the value is a plain field written before the link. The
// dequeued values are distinct, each 1 or 2, and a second value taken
// means both were. PASS everywhere. -DBUG: the link CAS is relaxed (and
// its reads too): RACE on the value under rc11/imm, FAIL under aarch64,
// power, riscv; PASS under sc and x86.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#ifdef BUG
#define LINK memory_order_relaxed
#define ACQ memory_order_relaxed
#else
#define LINK memory_order_release
#define ACQ memory_order_acquire
#endif
struct node {
  int value;
  _Atomic(struct node *) next;
};
struct node pool[3];
_Atomic(struct node *) head, tail;
static void enqueue(struct node *n, int v) {
  n->value = v;
  atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
  for (;;) {
    struct node *t = atomic_load_explicit(&tail, ACQ);
    struct node *next = atomic_load_explicit(&t->next, ACQ);
    if (next == NULL) {
      if (atomic_compare_exchange_strong_explicit(&t->next, &next, n, LINK, memory_order_relaxed)) {
        atomic_compare_exchange_strong_explicit(&tail, &t, n, memory_order_release, memory_order_relaxed);
        return;
      }
    } else {
      atomic_compare_exchange_strong_explicit(&tail, &t, next, memory_order_release, memory_order_relaxed);
    }
  }
}
static int dequeue(int *out) {
  for (;;) {
    struct node *h = atomic_load_explicit(&head, ACQ);
    struct node *t = atomic_load_explicit(&tail, ACQ);
    struct node *next = atomic_load_explicit(&h->next, ACQ);
    if (h == t) {
      if (next == NULL)
        return 0;
      atomic_compare_exchange_strong_explicit(&tail, &t, next, memory_order_release, memory_order_relaxed);
    } else {
      int v = next->value;
      if (atomic_compare_exchange_strong_explicit(&head, &h, next, memory_order_release, memory_order_relaxed)) {
        *out = v;
        return 1;
      }
    }
  }
}
void *enq(void *arg) {
  long i = (long)arg;
  enqueue(&pool[i], (int)i);
  return NULL;
}
void *deq(void *arg) {
  int a = 0, b = 0;
  if (dequeue(&a)) {
    assert(a == 1 || a == 2);
    if (dequeue(&b))
      assert(a + b == 3);
  }
  return NULL;
}
int main(void) {
  atomic_init(&head, &pool[0]);
  atomic_init(&tail, &pool[0]);
  pthread_t t[3];
  pthread_create(&t[0], NULL, enq, (void *)1L);
  pthread_create(&t[1], NULL, enq, (void *)2L);
  pthread_create(&t[2], NULL, deq, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  return 0;
}
