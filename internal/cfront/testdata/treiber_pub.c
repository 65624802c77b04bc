// A Treiber stack whose pop reads the top node concurrently with the
// pushes: with a relaxed push (the bug), the popper may see the node
// before its value.
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
  } while (!atomic_compare_exchange_strong_explicit(&top, &t, n, memory_order_relaxed, memory_order_relaxed));
}

void *pusher(void *arg) {
  long i = (long)arg;
  pool[i].value = (int)i + 1;
  push(&pool[i]);
  return NULL;
}

void *popper(void *arg) {
  struct node *t = atomic_load_explicit(&top, memory_order_acquire);
  if (t != NULL)
    assert(t->value != 0);
  return NULL;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, pusher, (void *)i);
  pthread_create(&t[2], NULL, popper, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  return 0;
}
