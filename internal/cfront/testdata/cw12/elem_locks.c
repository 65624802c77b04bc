// Per-element mutexes guarding an array (the shape of goblint's
// regression tests on array races): thread i updates bucket i % 2 under
// locks[i % 2]; a summary thread takes both locks in order and reads
// every bucket.
// Default: PASS under every model.
// -D BUG: a worker takes the lock of the other bucket than the one it
// updates: two workers update bucket 0 under different locks: a race
// under rc11/imm, FAIL under the others (a lost update).
#include <assert.h>
#include <pthread.h>

#define W 3

static pthread_mutex_t locks[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static int bucket[2];

static void *worker(void *arg) {
  int i = (int)(long)arg;
  int b = i % 2;
#ifdef BUG
  int l = i == 2 ? 1 : b;
#else
  int l = b;
#endif
  pthread_mutex_lock(&locks[l]);
  bucket[b] = bucket[b] + 1;
  pthread_mutex_unlock(&locks[l]);
  return 0;
}

int main(void) {
  pthread_t t[W];
  for (long i = 0; i < W; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < W; i++)
    pthread_join(t[i], 0);
  pthread_mutex_lock(&locks[0]);
  pthread_mutex_lock(&locks[1]);
  assert(bucket[0] + bucket[1] == W);
  pthread_mutex_unlock(&locks[1]);
  pthread_mutex_unlock(&locks[0]);
  return 0;
}
