/* A spin loop whose exit depends on two variables, written by two
   threads with relaxed stores: the waiter may leave the loop having
   read both flags while the data written before them is not visible
   (no release/acquire): the assertion fails under rc11, tso keeps it. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int x, y, data;

static void *waiter(void *arg) {
	(void)arg;
	while (!(atomic_load_explicit(&x, memory_order_relaxed) && atomic_load_explicit(&y, memory_order_relaxed)))
		;
	assert(atomic_load_explicit(&data, memory_order_relaxed) == 1);
	return 0;
}

static void *sx(void *arg) {
	(void)arg;
	atomic_store_explicit(&data, 1, memory_order_relaxed);
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	return 0;
}

static void *sy(void *arg) {
	(void)arg;
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	return 0;
}

int main(void) {
	pthread_t a, b, c;
	pthread_create(&a, 0, waiter, 0);
	pthread_create(&b, 0, sx, 0);
	pthread_create(&c, 0, sy, 0);
	return 0;
}
