// main ends with pthread_exit: the process lives on until the last
// thread ends, so the detached-style workers (never joined) still run
// to completion and their checks run. Each worker publishes its result
// with a release store; the last worker to finish (an acq_rel counter)
// checks both results.
// Default: PASS under every model.
// -DBUG: the last worker's check expects a result the other never
// writes: FAIL under every model (natively too, on every run: one of
// the two is always last).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static int result[2];
static atomic_int finished;

static void *worker(void *arg) {
  int id = (int)(long)arg;
  result[id] = 10 * (id + 1);
  if (atomic_fetch_add_explicit(&finished, 1, memory_order_acq_rel) == 1) {
#ifdef BUG
    assert(result[0] + result[1] == 31);
#else
    assert(result[0] + result[1] == 30);
#endif
  }
  return 0;
}

int main(void) {
  pthread_t t;
  for (long i = 0; i < 2; i++)
    pthread_create(&t, 0, worker, (void *)i);
  pthread_exit(0);
}
