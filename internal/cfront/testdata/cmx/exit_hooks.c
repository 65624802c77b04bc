// Exit handlers: a logger registers close_log and then flush with
// atexit (flush must run first: atexit handlers run in the reverse
// order of their registration, C11 7.22.4.4), and three destructors
// check at the very end, by priority (the largest number first; the
// default 65535 before 200 before 101), that the handlers ran and in
// which order. A worker adds to the log under a mutex.
// Default: main joins the worker and returns: PASS under every model
//   (native: never fails).
// -DEXIT: main ends with exit(0) instead of return: the same.
// -DBUG_ORDER: flush is registered first, so it runs last: close_log's
//   assertion fails under every model (native: always).
// -DBUG_ORDER -DQUICK: main ends with _Exit(0): no handler runs, PASS.
// -DBUG_DTOR: final_check gets priority 300, so it runs before
//   later_check (priority 200): its assertion fails under every model.
// -DNOJOIN: main does not join the worker: the destructor's read of
//   the worker's counter races with it (RACE under rc11 and imm; FAIL
//   under the others, where the destructor may run first).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static int pending;  /* records not yet flushed */
static int flushed;  /* records written out */
static int closed;   /* the log is closed */
static int step;     /* destructors' order */
static int work_done;

static void flush(void) {
  pthread_mutex_lock(&log_mu);
  assert(!closed);
  flushed += pending;
  pending = 0;
  pthread_mutex_unlock(&log_mu);
}

static void close_log(void) {
  pthread_mutex_lock(&log_mu);
  assert(pending == 0); /* flushed first */
  closed = 1;
  pthread_mutex_unlock(&log_mu);
}

__attribute__((destructor)) static void last_check(void) {
  assert(step == 0);
  step = 1;
  assert(closed == 1 && flushed == 2);
  assert(work_done == 1);
}

__attribute__((destructor(200))) static void later_check(void) {
  assert(step == 1);
  step = 2;
}

#ifdef BUG_DTOR
#define FINAL_PRIO 300
#else
#define FINAL_PRIO 101
#endif
__attribute__((destructor(FINAL_PRIO))) static void final_check(void) {
  assert(step == 2);
}

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&log_mu);
  pending++;
  pthread_mutex_unlock(&log_mu);
  work_done = 1;
  return 0;
}

int main(void) {
#ifdef BUG_ORDER
  atexit(flush);
  atexit(close_log);
#else
  atexit(close_log);
  atexit(flush);
#endif
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&log_mu);
  pending++;
  pthread_mutex_unlock(&log_mu);
#ifndef NOJOIN
  pthread_join(t, 0);
#endif
#if defined(QUICK)
  _Exit(0);
#elif defined(EXIT)
  exit(0);
#endif
  return 0;
}
