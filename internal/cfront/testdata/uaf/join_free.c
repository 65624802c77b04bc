// main fills a heap buffer and gives it to a worker as the thread's
// argument; the worker sums it and returns the sum.
// Default: main frees the buffer after joining the worker: the join
// orders every access of the worker before the free. PASS everywhere.
// -DBUG: main frees the buffer right after creating the worker, which
// may not have read it yet: a use after free at the worker's read, under
// every model (the creation orders main's writes before the worker, not
// the worker's reads before main's later free). ASan: heap-use-after-free
// whenever the worker reads after the free, which is most runs.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static void *sum3(void *arg) {
  int *buf = arg;
  long s = 0;
  for (int i = 0; i < 3; i++)
    s += buf[i];
  return (void *)s;
}

int main(void) {
  int *buf = malloc(3 * sizeof *buf);
  buf[0] = 1;
  buf[1] = 2;
  buf[2] = 4;
  pthread_t t;
  pthread_create(&t, NULL, sum3, buf);
#ifdef BUG
  free(buf);
#endif
  void *r;
  pthread_join(t, &r);
#ifndef BUG
  free(buf);
#endif
  assert((long)r == 7);
  return 0;
}
