// malloc, calloc, realloc and free around threads: main callocs an
// array of counters, each thread increments its own, main reallocs the
// array bigger after the joins (the old contents are kept, the new tail
// is set by hand), then frees everything once. PASS everywhere.
// -DNOREALLOC leaves realloc out (Musket refused it before).
// -DUAF: a thread frees its node (handed over through a release store)
// while main still reads it after the acquire: a use after free, which
// GenMC reports as an error: Musket must report it (or refuse), never
// PASS.
// -DDFREE: the node is freed by both the thread and main: a double
// free, likewise an error (Musket: FAIL "free: double free").
// -DBADFREE (with -DNOREALLOC): main frees a static variable (glibc
// aborts: "free(): invalid pointer"): FAIL.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
struct node {
  int v;
};
static int *counts;
static struct node *_Atomic handed;
static void *worker(void *arg) {
  int id = (int)(long)arg;
  counts[id] += id + 1;
  if (id == 0) {
    struct node *n = malloc(sizeof *n);
    n->v = 5;
    atomic_store_explicit(&handed, n, memory_order_release);
#if defined(UAF) || defined(DFREE)
    free(n);
#endif
  }
  return NULL;
}
int main(void) {
  pthread_t t[2];
  counts = calloc(2, sizeof *counts);
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  struct node *n;
  while (!(n = atomic_load_explicit(&handed, memory_order_acquire)))
    ;
  int v = n->v;
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(v == 5);
#ifndef UAF
  free(n);
#endif
#ifdef NOREALLOC
  assert(counts[0] == 1 && counts[1] == 2);
  free(counts);
#ifdef BADFREE
  static int not_heap;
  free(&not_heap);
#endif
  return 0;
#endif
  int *more = realloc(counts, 4 * sizeof *more);
  assert(more != NULL);
  more[2] = more[3] = 0;
  assert(more[0] == 1 && more[1] == 2 && more[2] == 0);
  free(more);
  return 0;
}
