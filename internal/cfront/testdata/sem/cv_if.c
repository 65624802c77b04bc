// The lost-wake-up bug: the consumer waits in an `if`, not a `while`.
// POSIX lets pthread_cond_wait return without a signal (a spurious
// wake-up), so the consumer may read the data before it is there.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, data;

static void *producer(void *arg) {
	pthread_mutex_lock(&m);
	data = 42;
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	return 0;
}

static void *consumer(void *arg) {
	pthread_mutex_lock(&m);
	if (!ready)
		pthread_cond_wait(&cv, &m);
	assert(data == 42);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t p, c;
	pthread_create(&c, 0, consumer, 0);
	pthread_create(&p, 0, producer, 0);
	pthread_join(p, 0);
	pthread_join(c, 0);
	return 0;
}
