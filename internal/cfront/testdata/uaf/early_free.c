// main gives a heap buffer to two workers, each fills its half; main
// sums the halves after joining them and frees the buffer.
// Default: PASS everywhere.
// -DBUG: main frees the buffer after joining only the first worker: the
// second one's writes are not ordered before the free (it may still be
// running): a use after free under every model (under sc, an
// interleaving runs the second worker after the free). FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int *buf;

static void *fill(void *arg) {
  long half = (long)arg;
  buf[2 * half] = 1;
  buf[2 * half + 1] = 2;
  return NULL;
}

int main(void) {
  pthread_t t[2];
  buf = malloc(4 * sizeof *buf);
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, fill, (void *)i);
  pthread_join(t[0], NULL);
#ifdef BUG
  int first = buf[0] + buf[1];
  free(buf);
  pthread_join(t[1], NULL);
  assert(first == 3);
#else
  pthread_join(t[1], NULL);
  int s = buf[0] + buf[1] + buf[2] + buf[3];
  free(buf);
  assert(s == 6);
#endif
  return 0;
}
