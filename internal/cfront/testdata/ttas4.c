/* Test-and-test-and-set lock: four threads created in a loop, each
   incrementing a plain counter twice under the lock. The create, join
   and increment loops run a constant number of times: they are unrolled
   exactly, whatever the bound. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define NTHREADS 4
#define NINCS 2

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
	atomic_store_explicit(&lock, 0, memory_order_release);
}

static void *worker(void *arg) {
	(void)arg;
	for (int j = 0; j < NINCS; j++) {
		ttas_lock();
		counter = counter + 1;
		ttas_unlock();
	}
	return NULL;
}

int main(void) {
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == NTHREADS * NINCS);
	return 0;
}
