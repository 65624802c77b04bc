// Lost wake-ups (safe, but a waiter may sleep for ever). Default: the
// producer sets the flag without signalling. -DEARLY: it signals, then
// sets the flag in a later critical section, so the consumer may wait
// after the only signal. -DGOOD: it sets the flag and signals in one
// critical section (no lost wake-up).
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void *producer(void *arg) {
	pthread_mutex_lock(&m);
#if defined(EARLY)
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	pthread_mutex_lock(&m);
	ready = 1;
#elif defined(GOOD)
	ready = 1;
	pthread_cond_signal(&cv);
#else
	ready = 1;
#endif
	pthread_mutex_unlock(&m);
	return 0;
}

static void *consumer(void *arg) {
	pthread_mutex_lock(&m);
	while (!ready)
		pthread_cond_wait(&cv, &m);
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
