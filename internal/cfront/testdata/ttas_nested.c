/* Test-and-test-and-set lock: clang merges the test loop and the exchange into one loop, whose iterations either read the lock set or exchange it back to 1; both are cut as spin iterations. Two threads increment a plain counter under the lock; main checks that no increment was lost. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define NTHREADS 2

static atomic_int lock;
static int counter;

static void ttas_lock(void) {
	for (;;) {
		while (atomic_load_explicit(&lock, memory_order_relaxed))
			;
		if (!atomic_exchange_explicit(&lock, 1, memory_order_acquire))
			return;
	}
}

static void ttas_unlock(void) {
	atomic_store_explicit(&lock, 0, memory_order_release); /* UNLOCK */
}

static void *worker(void *arg) {
	(void)arg;
	ttas_lock();
	counter = counter + 1;
	ttas_unlock();
	return NULL;
}

int main(void) {
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == NTHREADS);
	return 0;
}
