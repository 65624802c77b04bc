/* spin_late.c with the data written before a release store of the flag,
   which the waiter reads with acquire: no race, and the assertion holds.
   Both threads can still stop in their spin loops on stale values. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int flag, ack;
static int data;

static void *waiter(void *arg) {
	(void)arg;
	while (!atomic_load_explicit(&flag, memory_order_acquire))
		;
	assert(data == 1);
	atomic_store_explicit(&ack, 1, memory_order_relaxed);
	return NULL;
}

static void *setter(void *arg) {
	(void)arg;
	data = 1;
	atomic_store_explicit(&flag, 1, memory_order_release);
	while (!atomic_load_explicit(&ack, memory_order_relaxed))
		;
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, waiter, NULL);
	pthread_create(&b, NULL, setter, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
