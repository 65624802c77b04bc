// C11 <threads.h> mutex kinds: a timed mutex (mtx_timed) taken with
// mtx_timedlock and a deadline, and mtx_trylock on a plain one. Two
// threads add under the timed mutex. A checker without time must either
// model mtx_timedlock as a lock that may time out or refuse it by name.
// Musket has no clock: mtx_timedlock may return thrd_timedout (C11
// 7.26.4.4 lets it once the deadline passes, which a slow enough run
// reaches).
// Default: each thread asserts the lock was taken or timed out and adds
// only when taken: PASS under every model.
// -D BUG: each thread adds even when mtx_timedlock timed out: the two
// adds race (RACE under rc11 and imm; the total is at most 2 anyway: PASS
// under sc and the targets). Natively 0/100: the deadline is a minute
// away.
#include <assert.h>
#include <threads.h>
#include <time.h>

static mtx_t m;
static int total;

static int worker(void *arg) {
  (void)arg;
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  ts.tv_sec += 60;
  int rc = mtx_timedlock(&m, &ts);
  assert(rc == thrd_success || rc == thrd_timedout);
#ifdef BUG
  total++;
  if (rc == thrd_success)
    mtx_unlock(&m);
#else
  if (rc == thrd_success) {
    total++;
    mtx_unlock(&m);
  }
#endif
  return 0;
}

int main(void) {
  mtx_init(&m, mtx_timed);
  thrd_t a, b;
  thrd_create(&a, worker, 0);
  thrd_create(&b, worker, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  assert(total <= 2);
  mtx_destroy(&m);
  return 0;
}
