// A recursive mutex guards a log; log_record takes it, and so does its
// caller flush_and_log, which already holds it: PTHREAD_MUTEX_RECURSIVE
// lets the owner lock again (a count), and the mutex is free again only
// when every lock has its unlock. Two workers each add two records.
// Default: PASS under every model (native: never fails).
// -DSTATIC: the mutex is glibc's PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP
//   (no init call): PASS.
// -DC11: C11's mtx_init(mtx_plain | mtx_recursive): PASS.
// -DBUG: a third record is added after the last unlock, outside the
//   mutex: RACE under rc11 and imm, a lost update (FAIL) under the
//   others (sc included: two unordered increments).
// -DCOUNT: the worker unlocks only once (one lock left): the other
//   worker waits forever (no verdict without -liveness: PASS; with
//   -liveness, a thread waits forever). Natively it hangs.
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#ifdef C11
#include <threads.h>
static mtx_t log_mu;
#define LOCK(m) mtx_lock(m)
#define UNLOCK(m) mtx_unlock(m)
#else
#ifdef STATIC
static pthread_mutex_t log_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
#else
static pthread_mutex_t log_mu;
#endif
#define LOCK(m) pthread_mutex_lock(m)
#define UNLOCK(m) pthread_mutex_unlock(m)
#endif

static int records;
static int last_writer;

static void log_record(int who) {
  LOCK(&log_mu);
  records++;
  last_writer = who;
  UNLOCK(&log_mu);
}

static void flush_and_log(int who) {
  LOCK(&log_mu);
  records++;
  log_record(who); /* relocks: depth 2 */
  UNLOCK(&log_mu);
}

static void *worker(void *arg) {
  int who = (int)(long)arg;
  LOCK(&log_mu);
  flush_and_log(who); /* depth 3 at the innermost */
#ifndef COUNT
  UNLOCK(&log_mu);
#endif
#ifdef BUG
  records++;
#endif
  return 0;
}

int main(void) {
#ifdef C11
  mtx_init(&log_mu, mtx_plain | mtx_recursive);
#elif !defined(STATIC)
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&log_mu, &at);
  pthread_mutexattr_destroy(&at);
#endif
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)1L);
  pthread_create(&b, 0, worker, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
#ifdef BUG
  assert(records == 6);
#else
  assert(records == 4);
#endif
  assert(last_writer == 1 || last_writer == 2);
  return 0;
}
