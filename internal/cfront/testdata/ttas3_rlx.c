/* Test-and-test-and-set lock taken with a relaxed exchange (a bug: the
   critical sections are not ordered), three threads, one increment
   each: the plain counter races and an increment may be lost. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define NTHREADS 3
#define NINCS 1

static atomic_int lock;
static int counter;

static void ttas_lock(void) {
	for (;;) {
		while (atomic_load_explicit(&lock, memory_order_relaxed))
			;
		if (!atomic_exchange_explicit(&lock, 1, memory_order_relaxed))
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
