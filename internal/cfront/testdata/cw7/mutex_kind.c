// Mutex kinds. A logging helper locks the log mutex and is also called
// by a function that already holds it: that needs a recursive mutex
// (PTHREAD_MUTEX_RECURSIVE). The count of records is checked after the
// joins.
// Default (recursive): PASS natively on every run; Musket refused a
// recursive mutex by name (cwild7) and now lowers it with an owner and
// a count (cmutex): PASS under every model.
// -DERRCHK: an error-checking mutex (the relock returns EDEADLK, the
// inner unlock frees it, the outer one returns EPERM): PASS.
// -DSTATIC: glibc's static PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP:
// PASS (it was a normal mutex in the lowering before cwild7).
// -DNORMAL: a normal mutex and no relock (the helper's caller unlocks
// first): PASS under every model.
// -DNORMAL -DBUG: the second record is written outside the lock: RACE
// under rc11 and imm, a lost update (FAIL) under the others.
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>

#ifdef STATIC
static pthread_mutex_t log_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
#else
static pthread_mutex_t log_mu;
#endif
static int records;

static void log_record(void) {
  pthread_mutex_lock(&log_mu);
  records++;
  pthread_mutex_unlock(&log_mu);
}

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&log_mu);
  records++;
#ifdef NORMAL
  pthread_mutex_unlock(&log_mu);
#ifdef BUG
  records++;
#else
  log_record();
#endif
#else
  log_record(); /* relocks: fine for a recursive mutex */
  pthread_mutex_unlock(&log_mu);
#endif
  return 0;
}

int main(void) {
#ifndef STATIC
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
#if defined(NORMAL)
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_NORMAL);
#elif defined(ERRCHK)
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
#else
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
#endif
  pthread_mutex_init(&log_mu, &at);
  pthread_mutexattr_destroy(&at);
#endif
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(records == 4);
  pthread_mutex_destroy(&log_mu);
  return 0;
}
