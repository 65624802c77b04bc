// Thread-specific data destructors and pthread_exit: worker A sets its
// value and leaves through pthread_exit from a nested function; worker B
// never sets a value (its destructor must not run: POSIX calls it only
// for non-NULL values); main's own value has no destructor call (main
// returns: exit runs none). The destructor records the value it got.
// Default: PASS everywhere. -D BUG: worker B sets a value too, and main
// still expects one destructor call: FAIL everywhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_key_t key;
static atomic_int calls;
static atomic_long seen;

static void release(void *v) {
  atomic_fetch_add(&calls, 1);
  atomic_store(&seen, (long)v);
  assert(pthread_getspecific(key) == 0); // set to NULL before the call
}

static void leave(long v) {
  pthread_setspecific(key, (void *)v);
  pthread_exit(0);
}

static void *worker_a(void *arg) {
  (void)arg;
  leave(5);
  return (void *)1; // not reached
}

static void *worker_b(void *arg) {
  (void)arg;
#ifdef BUG
  pthread_setspecific(key, (void *)6);
#endif
  return 0;
}

int main(void) {
  pthread_key_create(&key, release);
  pthread_setspecific(key, (void *)9);
  pthread_t a, b;
  pthread_create(&a, 0, worker_a, 0);
  pthread_create(&b, 0, worker_b, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&calls) == 1 && atomic_load(&seen) == 5);
  return 0;
}
