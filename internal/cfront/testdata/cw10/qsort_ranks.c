// qsort with a comparison function, called by a worker on its own copy
// of a shared array, then the sorted copy published under a mutex; main
// checks the order. Default: PASS everywhere. -D BUG: the comparison
// function compares in the wrong direction: FAIL everywhere.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static const int input[4] = {3, 1, 4, 2};
static int sorted[4];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static int cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
#ifdef BUG
  return (y > x) - (y < x);
#else
  return (x > y) - (x < y);
#endif
}

static void *worker(void *arg) {
  (void)arg;
  int mine[4];
  for (int i = 0; i < 4; i++)
    mine[i] = input[i];
  qsort(mine, 4, sizeof mine[0], cmp);
  pthread_mutex_lock(&mu);
  for (int i = 0; i < 4; i++)
    sorted[i] = mine[i];
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  for (int i = 0; i < 4; i++)
    assert(sorted[i] == i + 1);
  return 0;
}
