// A waiter with a deadline: pthread_cond_timedwait with an absolute time
// from clock_gettime (CLOCK_REALTIME) + 1 s, in a loop that gives up on
// ETIMEDOUT. Musket's clock (clock.go) is a reading in range, not a
// time that passes: the timed wait may return ETIMEDOUT whatever the
// deadline (a slow setter can always miss it), so the waiter may give up
// before the signal and the program handles both: when it did not time
// out the value is set (PASS). -D NOCLOCK: the deadline is a constant
// timespec, long past (natively the wait times out at once). BUG: it
// asserts that it never times out (FAIL: a time-out is possible; native
// runs with the real clock never wait 1 s, 0/100; with NOCLOCK about
// half the runs time out before the setter signals).
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <assert.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, value;

static void *setter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	value = 5;
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct timespec deadline = {1000, 0};
#ifndef NOCLOCK
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 1;
#endif
	pthread_create(&t, NULL, setter, NULL);
	int rc = 0;
	pthread_mutex_lock(&m);
	while (!ready && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&cv, &m, &deadline);
	if (ready)
		assert(value == 5);
#ifdef BUG
	assert(rc != ETIMEDOUT);
#endif
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	return 0;
}
