// A character buffer on the heap (malloc without a cast to wider data)
// that a worker fills byte by byte and terminates, main reading it after
// the join. Before cwild9 a heap object had a cell every 4 bytes, so
// buf[1] was no cell: an "invalid memory access" FAIL no run has.
// Default: PASS everywhere. -D BUG: main reads buf[1] before the join:
// a data race (RACE under rc11/imm; it may still be indeterminate:
// FAIL elsewhere, as a read of uninitialised memory).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static char *buf;

static void *fill(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++)
    buf[i] = (char)('a' + i);
  buf[3] = 0;
  return 0;
}

int main(void) {
  buf = malloc(5);
  pthread_t t;
  pthread_create(&t, 0, fill, 0);
#ifdef BUG
  assert(buf[1] == 'b');
#endif
  pthread_join(t, 0);
  assert(buf[1] == 'b' && buf[3] == 0);
  free(buf);
  return 0;
}
