// Michael and Scott's two-lock queue (PODC 1996): a dummy node, a head
// lock taken by dequeuers and a tail lock taken by enqueuers, so an
// enqueue and a dequeue run in parallel; the only shared field between
// them is the last node's `next`, written by the enqueuer and read by the
// dequeuer, which the algorithm makes atomic. Nodes come from a static
// pool (no free). Two enqueuers and one dequeuer that tries twice.
// Default: PASS under every model.
// -DBUG: `next` is a plain pointer: the enqueuer's write and the
// dequeuer's read race (RACE under rc11 and imm); under the other models
// the plain accesses are as written and the node's value is written
// before the link, and sc/x86 keep that order (PASS), but aarch64,
// power and riscv may see the link before the value (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct node {
  int value;
#ifdef BUG
  struct node *next;
#define LOADN(p) ((p)->next)
#define STOREN(p, v) ((p)->next = (v))
#else
  _Atomic(struct node *) next;
#define LOADN(p) atomic_load_explicit(&(p)->next, memory_order_acquire)
#define STOREN(p, v) atomic_store_explicit(&(p)->next, (v), memory_order_release)
#endif
};

static struct node pool[3];
static struct node *head = &pool[0], *tail = &pool[0];
static pthread_mutex_t hlock = PTHREAD_MUTEX_INITIALIZER, tlock = PTHREAD_MUTEX_INITIALIZER;

static void enqueue(struct node *n, int v) {
  n->value = v;
  STOREN(n, (struct node *)0);
  pthread_mutex_lock(&tlock);
  STOREN(tail, n);
  tail = n;
  pthread_mutex_unlock(&tlock);
}

static int dequeue(int *v) {
  pthread_mutex_lock(&hlock);
  struct node *first = head, *next = LOADN(first);
  if (!next) {
    pthread_mutex_unlock(&hlock);
    return 0;
  }
  *v = next->value;
  head = next;
  pthread_mutex_unlock(&hlock);
  return 1;
}

static void *producer(void *arg) {
  long i = (long)arg;
  enqueue(&pool[i], (int)i * 100);
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  int v, last = 0;
  for (int k = 0; k < 2; k++)
    if (dequeue(&v)) {
      assert(v == 100 || v == 200);
      assert(v != last);
      last = v;
    }
  return 0;
}

int main(void) {
  pthread_t p1, p2, c;
  pthread_create(&p1, 0, producer, (void *)1L);
  pthread_create(&p2, 0, producer, (void *)2L);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p1, 0);
  pthread_join(p2, 0);
  pthread_join(c, 0);
  return 0;
}
