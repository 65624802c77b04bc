// A reentrant lock built by hand on a plain mutex, an owner field set
// from pthread_self and compared with pthread_equal, and a depth count
// (the shape of many hand-rolled recursive locks): a thread that already
// owns the lock only counts the depth.
// Default: the owner field is atomic (another thread may read it while
// the owner writes it): PASS under every model.
// -D BUG: unlock clears `held` after releasing the mutex: that late
// clear may erase the mark of the next owner, which then takes the
// mutex again in its nested call and blocks forever. No assertion fails
// (PASS under every model); with -liveness the blocked thread is found:
// LIVELOCK.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static _Atomic pthread_t owner;
static atomic_int held;
static int depth;
static int work;

static void rlock(void) {
  if (atomic_load(&held) && pthread_equal(atomic_load(&owner), pthread_self())) {
    depth++;
    return;
  }
  pthread_mutex_lock(&m);
  atomic_store(&owner, pthread_self());
  atomic_store(&held, 1);
  depth = 1;
}

static void runlock(void) {
  if (--depth > 0)
    return;
#ifdef BUG
  pthread_mutex_unlock(&m);
  atomic_store(&held, 0);
#else
  atomic_store(&held, 0);
  pthread_mutex_unlock(&m);
#endif
}

static void *worker(void *arg) {
  (void)arg;
  rlock();
  rlock();
  work++;
  runlock();
  runlock();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(work == 2);
  return 0;
}
