// A one-slot buffer guarded by a mutex and two condition variables: a
// producer puts two items, a consumer takes them (while-loop waits).
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t notempty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t notfull;
static int full, slot;

static void *producer(void *arg) {
	for (int i = 1; i <= 2; i++) {
		pthread_mutex_lock(&m);
		while (full)
			pthread_cond_wait(&notfull, &m);
		slot = i * 10;
		full = 1;
		pthread_cond_signal(&notempty);
		pthread_mutex_unlock(&m);
	}
	return 0;
}

static void *consumer(void *arg) {
	int sum = 0;
	for (int i = 1; i <= 2; i++) {
		pthread_mutex_lock(&m);
		while (!full)
			pthread_cond_wait(&notempty, &m);
		assert(slot == i * 10);
		sum += slot;
		full = 0;
		pthread_cond_signal(&notfull);
		pthread_mutex_unlock(&m);
	}
	return (void *)(long)sum;
}

int main(void) {
	pthread_t p, c;
	void *sum;
	pthread_cond_init(&notfull, 0);
	pthread_create(&c, 0, consumer, 0);
	pthread_create(&p, 0, producer, 0);
	pthread_join(p, 0);
	pthread_join(c, &sum);
	assert((long)sum == 30);
	pthread_cond_destroy(&notfull);
	return 0;
}
