// Thread cancellation, which Musket does not model: a worker blocked in
// a condition wait is cancelled by main (-D CANCEL), or registers a
// cleanup handler that releases its lock (pthread_cleanup_push/pop, glibc
// macros over __pthread_register_cancel and a sigsetjmp; default). Both
// must be refused by name, never checked as if the call did nothing.
// -D NOCANCEL: the same program with a flag instead of cancellation
// (PASS: the worker exits its wait when stop is set; BUG2: it reads stop
// outside the lock, a race).
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int stop, cleaned;

static void unlock_it(void *arg)
{
	cleaned = 1;
	pthread_mutex_unlock((pthread_mutex_t *)arg);
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
#if !defined(CANCEL) && !defined(NOCANCEL)
	pthread_cleanup_push(unlock_it, &m);
	while (!stop)
		pthread_cond_wait(&cv, &m);
	pthread_cleanup_pop(1);
#else
	while (!stop)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
#endif
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
#ifdef CANCEL
	pthread_cancel(t);
#else
#ifndef BUG2
	pthread_mutex_lock(&m);
#endif
	stop = 1;
	pthread_cond_signal(&cv);
#ifndef BUG2
	pthread_mutex_unlock(&m);
#endif
#endif
	pthread_join(t, NULL);
#if !defined(CANCEL) && !defined(NOCANCEL)
	assert(cleaned == 1);
#endif
	return 0;
}
