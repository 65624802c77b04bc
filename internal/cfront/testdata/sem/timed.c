// Timed waits: a condition wait that may time out (the loop stops on
// ETIMEDOUT) and a timed mutex lock that may fail while the worker holds
// the mutex. Safe as written; -DBUG assumes the flag is set after the
// loop, -DBUGLOCK assumes the timed lock always gets the mutex.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void *worker(void *arg) {
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t t;
	struct timespec ts = {0, 0}; // (Musket does not model clock_gettime)
	pthread_create(&t, 0, worker, 0);
	int rc = 0;
	if (pthread_mutex_timedlock(&m, &ts) == 0) {
		while (!ready && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&cv, &m, &ts);
#ifdef BUG
		assert(ready);
#endif
		pthread_mutex_unlock(&m);
	} else {
#ifdef BUGLOCK
		assert(0);
#endif
	}
	pthread_join(t, 0);
	return 0;
}
