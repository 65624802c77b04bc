/* A lock whose unlock passes through a bad value: waiters spinning on
   the lock check, in each spin iteration, that they never see it; only
   a waiter in a spin iteration reading the intermediate write fails. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int lock;
static int counter;

static void acquire(void) {
	for (;;) {
		int v;
		while ((v = atomic_load_explicit(&lock, memory_order_relaxed)) != 0)
			assert(v != 3);
		if (!atomic_exchange_explicit(&lock, 1, memory_order_acquire))
			return;
	}
}

static void release(void) {
	atomic_store_explicit(&lock, 3, memory_order_relaxed);
	atomic_store_explicit(&lock, 0, memory_order_release);
}

static void *worker(void *arg) {
	(void)arg;
	acquire();
	counter++;
	release();
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, worker, 0);
	pthread_create(&b, 0, worker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(counter == 2);
	return 0;
}
