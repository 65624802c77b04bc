// Thread-specific data: a key made once, each worker stores its own
// heap value with pthread_setspecific and reads it back with
// pthread_getspecific; another thread's value is never seen. The
// destructor runs at each worker's exit for its non-NULL value (POSIX:
// pthread_key_create) and counts. Default: PASS everywhere. -D BUG: the
// destructor checks a value the worker set (as the DIVINE suite's
// tls_destructor_worker does): the check fails when the destructor runs:
// FAIL everywhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_key_t key;
static atomic_int dtors;

static void dtor(void *v) {
  long x = (long)v;
#ifdef BUG
  assert(x != 7);
#endif
  assert(x == 7 || x == 8);
  atomic_fetch_add(&dtors, 1);
}

static void *worker(void *arg) {
  long mine = 7 + (long)arg;
  assert(pthread_getspecific(key) == 0);
  pthread_setspecific(key, (void *)mine);
  assert((long)pthread_getspecific(key) == mine);
  return 0;
}

int main(void) {
  assert(pthread_key_create(&key, dtor) == 0);
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  pthread_setspecific(key, (void *)99);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert((long)pthread_getspecific(key) == 99);
  assert(atomic_load(&dtors) == 2);
  return 0;
}
