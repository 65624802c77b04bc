// A worker allocates a message, fills it and hands it to main through a
// release store; main reads it after an acquire load. Who frees it?
// Default: main, after the join: every access happens before the free.
// PASS everywhere.
// -DBUG: the worker frees the message right after handing it over, so
// main's read of m->len races with the free: a use after free (undefined
// behaviour, C11 7.22.3.3; ASan: heap-use-after-free when main reads
// late). FAIL "use after free" at main's read, under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct msg {
  int len;
  int body[2];
};

static struct msg *_Atomic box;

static void *producer(void *arg) {
  (void)arg;
  struct msg *m = malloc(sizeof *m);
  m->len = 2;
  m->body[0] = 7;
  m->body[1] = 9;
  atomic_store_explicit(&box, m, memory_order_release);
#ifdef BUG
  free(m);
#endif
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, producer, NULL);
  struct msg *m;
  while ((m = atomic_load_explicit(&box, memory_order_acquire)) == NULL)
    ;
  int sum = 0;
  for (int i = 0; i < m->len; i++)
    sum += m->body[i];
  pthread_join(t, NULL);
  assert(sum == 16);
#ifndef BUG
  free(m);
#endif
  return 0;
}
