// A one-producer one-consumer linked queue of malloc'ed nodes: the
// producer links two nodes with release stores, the consumer follows the
// links with acquire loads and checks the values.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
  int value;
  _Atomic(struct node *) next;
};

struct node head;

void *producer(void *arg) {
  struct node *tail = &head;
  for (int i = 1; i <= 2; i++) {
    struct node *n = malloc(sizeof(struct node));
    n->value = i;
    atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
    atomic_store_explicit(&tail->next, n, memory_order_release);
    tail = n;
  }
  return NULL;
}

void *consumer(void *arg) {
  struct node *n = atomic_load_explicit(&head.next, memory_order_acquire);
  if (n != NULL) {
    assert(n->value == 1);
    struct node *m = atomic_load_explicit(&n->next, memory_order_acquire);
    if (m != NULL)
      assert(m->value == 2);
  }
  return NULL;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  printf("done\n");
  return 0;
}
