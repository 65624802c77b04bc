// A Treiber stack over a static node pool: two threads push one node
// each with compare-and-swap loops on the top pointer; after the joins
// main pops both and checks their values.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct node {
  int value;
  struct node *next;
};

struct node pool[2];
_Atomic(struct node *) top;

void push(struct node *n) {
  struct node *t = atomic_load_explicit(&top, memory_order_relaxed);
  do {
    n->next = t;
  } while (!atomic_compare_exchange_strong_explicit(&top, &t, n, memory_order_release, memory_order_relaxed));
}

struct node *pop(void) {
  struct node *t = atomic_load_explicit(&top, memory_order_acquire);
  while (t != NULL && !atomic_compare_exchange_weak_explicit(&top, &t, t->next, memory_order_acquire, memory_order_acquire))
    ;
  return t;
}

void *pusher(void *arg) {
  long i = (long)arg;
  pool[i].value = (int)i + 1;
  push(&pool[i]);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, pusher, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  struct node *a = pop();
  struct node *b = pop();
  assert(a != NULL && b != NULL);
  assert(a->value + b->value == 3);
  assert(pop() == NULL);
  return 0;
}
