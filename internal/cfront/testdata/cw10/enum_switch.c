// An enum-driven worker: a job's state (enum) moves IDLE -> CLAIMED ->
// DONE by compare-and-swap; each worker switches on the state it reads
// and claims the job once; the claimer writes the result (plain) and
// publishes DONE with a release. main waits for DONE with acquire loads
// and checks the result. Default: PASS everywhere. -D BUG: the CLAIMED
// case falls through into the IDLE case (a missing break): a worker
// that sees CLAIMED also writes the result: two claimers... the second
// writes a different value: RACE under rc11/imm, FAIL elsewhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

enum state { IDLE, CLAIMED, DONE };

static _Atomic enum state job = IDLE;
static int result;

static void *worker(void *arg) {
  int id = (int)(long)arg;
  enum state s = atomic_load(&job);
  switch (s) {
  case CLAIMED:
#ifndef BUG
    break;
#endif
  case IDLE: {
    enum state e = IDLE;
    if (atomic_compare_exchange_strong(&job, &e, CLAIMED) || s == CLAIMED) {
      result = 40 + id;
      atomic_store_explicit(&job, DONE, memory_order_release);
    }
    break;
  }
  case DONE:
    break;
  }
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  while (atomic_load_explicit(&job, memory_order_acquire) != DONE)
    ;
  int r = result;
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(r == result && (r == 40 || r == 41));
  return 0;
}
