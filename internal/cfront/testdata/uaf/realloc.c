// A log that grows: main reallocs a heap array bigger while a worker,
// joined first, has filled its first entries. realloc moves the object:
// the old pointer is freed (C11 7.22.3.5).
// Default: the contents are kept, the new entries written before use.
// PASS everywhere.
// -DBUG: main keeps using the old pointer after the realloc: a use after
// free (ASan: heap-use-after-free). FAIL "use after free".
// -DSHRINK: the array shrinks; the kept entries stay. PASS.
// -DTAIL: main reads a new entry it never wrote: memory realloc left
// uninitialised (GenMC: a read of uninitialised memory). FAIL "read of
// uninitialised heap memory".
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int *log_;

static void *filler(void *arg) {
  (void)arg;
  log_[0] = 4;
  log_[1] = 5;
  return NULL;
}

int main(void) {
  log_ = malloc(2 * sizeof *log_);
  pthread_t t;
  pthread_create(&t, NULL, filler, NULL);
  pthread_join(t, NULL);
  int *old = log_;
#ifdef SHRINK
  int *more = realloc(log_, sizeof *more);
  assert(more[0] == 4);
#else
  int *more = realloc(log_, 4 * sizeof *more);
  more[2] = 6;
#ifndef TAIL
  more[3] = 7;
#endif
  assert(more[0] + more[1] + more[2] + more[3] >= 15);
#endif
#ifdef BUG
  old[0] = 0;
#endif
  (void)old;
  free(more);
  return 0;
}
