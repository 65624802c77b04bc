// Workers report progress on stderr with fprintf, whose result (the
// number of characters, here with %zu and %+d) they add to a shared
// byte count under a mutex; main checks the count. Default: PASS
// everywhere. -D BUG: main reads the count before joining the second
// worker: a data race (RACE under rc11/imm) and a smaller count (FAIL
// elsewhere).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static size_t bytes;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  long id = (long)arg;
  int n = fprintf(stderr, "w%zu:%+d\n", (size_t)id, (int)id * 10);
  pthread_mutex_lock(&mu);
  bytes += (size_t)n;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)1L);
  pthread_create(&b, 0, worker, (void *)2L);
  pthread_join(a, 0);
#ifdef BUG
  assert(bytes == 14);
#endif
  pthread_join(b, 0);
  assert(bytes == 14);
  return 0;
}
