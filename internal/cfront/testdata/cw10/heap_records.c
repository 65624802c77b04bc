// A heap character buffer holding fixed-size binary records: each worker
// copies its int into its record (memcpy of 4 bytes at an offset known
// only when it runs) under a mutex; main reads the records back with
// memcpy and their first bytes as chars (little-endian). The buffer is
// character memory (one cell per byte) and the 4-byte copies are cut
// into bytes (mixed.go's charChunks; the graph engine decides them:
// tearing.go). Default: PASS everywhere (time-outs before: rc11, imm,
// sc, power). -D BUG: main expects worker 0's value in both records:
// FAIL everywhere (no race).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static char *buf;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  long i = (long)arg;
  int v = (int)(100 + i);
  pthread_mutex_lock(&mu);
  memcpy(buf + 4 * i, &v, sizeof v);
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  buf = malloc(8);
  memset(buf, 0, 8);
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  int a, b;
  memcpy(&a, buf, 4);
  memcpy(&b, buf + 4, 4);
#ifdef BUG
  assert(a == 100 && b == 100);
#else
  assert(a == 100 && b == 101 && buf[0] == 100 && buf[4] == 101);
#endif
  free(buf);
  return 0;
}
