// Message passing of ownership: the writer fills a node and raises a
// flag; the reader waits for the flag, reads the node and frees it.
// Default: release/acquire: the writer's stores happen before the free.
// PASS everywhere.
// -DRLX: the flag is relaxed: in C11 nothing orders the writer's store
// to the node before the reader's free (no happens-before: a use after
// free) under rc11 and imm;
// x86 keeps stores in order and loads in order (PASS under sc and x86);
// ARMv8 and RISC-V may reorder the two stores: FAIL there too.
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifdef RLX
#define PUB memory_order_relaxed
#define SUB memory_order_relaxed
#else
#define PUB memory_order_release
#define SUB memory_order_acquire
#endif

struct node {
  int a;
  int b;
};

static struct node *n;
static atomic_int ready;

static void *writer(void *arg) {
  (void)arg;
  n->a = 1;
  n->b = 2;
  atomic_store_explicit(&ready, 1, PUB);
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  while (!atomic_load_explicit(&ready, SUB))
    ;
  free(n);
  return NULL;
}

int main(void) {
  pthread_t w, r;
  n = malloc(sizeof *n);
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return 0;
}
