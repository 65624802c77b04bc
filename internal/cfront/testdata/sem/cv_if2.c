// Two consumers wait in an `if` for one item each; the producer makes
// one item at a time and broadcasts. A consumer woken by the broadcast
// may find the item already taken by the other: it takes an empty slot.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int items;

static void *producer(void *arg) {
	for (int i = 0; i < 2; i++) {
		pthread_mutex_lock(&m);
		items++;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&m);
	}
	return 0;
}

static void *consumer(void *arg) {
	pthread_mutex_lock(&m);
	if (items == 0)
		pthread_cond_wait(&cv, &m);
	assert(items > 0);
	items--;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t p, c1, c2;
	pthread_create(&c1, 0, consumer, 0);
	pthread_create(&c2, 0, consumer, 0);
	pthread_create(&p, 0, producer, 0);
	pthread_join(p, 0);
	pthread_join(c1, 0);
	pthread_join(c2, 0);
	return 0;
}
