// A mutex taken by pthread_mutex_trylock, with the protected access only
// on the path where the try succeeded (path-sensitive locking, as in
// goblint's regression tests): a thread that fails to get the lock
// counts the miss in an atomic instead.
// Default: PASS under every model: every protected update is under the
// lock; total + misses == 2.
// -D BUG: the failing path also updates total: a race under rc11/imm,
// FAIL under the others.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int total;
static atomic_int misses;

static void *worker(void *arg) {
  (void)arg;
  if (pthread_mutex_trylock(&m) == 0) {
    total++;
    pthread_mutex_unlock(&m);
  } else {
    atomic_fetch_add(&misses, 1);
#ifdef BUG
    total++;
#endif
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
#ifdef BUG
  assert(total == 2);
#else
  assert(total + atomic_load(&misses) == 2);
#endif
  return 0;
}
