// Three threads write their slot, meet at a barrier, read the others'
// slots, and meet again (the barrier used twice). Exactly one thread of
// each round gets PTHREAD_BARRIER_SERIAL_THREAD. With -DBUG a thread
// reads before the barrier.
#include <assert.h>
#include <pthread.h>

#define N 3
static pthread_barrier_t bar;
static int slot[N], serial;

static void *worker(void *arg) {
	long id = (long)arg;
	slot[id] = 1;
#ifdef BUG
	if (id == 0)
		assert(slot[1] + slot[2] == 2);
#endif
	if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
		__atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED);
	assert(slot[0] + slot[1] + slot[2] == N);
	if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
		__atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED);
	return 0;
}

int main(void) {
	pthread_t t[N];
	pthread_barrier_init(&bar, 0, N);
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], 0, worker, (void *)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], 0);
	assert(serial == 2);
	pthread_barrier_destroy(&bar);
	return 0;
}
