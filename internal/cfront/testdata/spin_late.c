/* A spin loop whose exit depends on a write made later by a thread that
   then spins itself: the setter sets the flag, writes the data and waits
   for the waiter's acknowledgement. Both can stop in their spin loops on
   values that later writes make stale. The flag is relaxed, so the
   waiter's read of the data races with the setter's write. */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int flag, ack;
static int data;

static void *waiter(void *arg) {
	(void)arg;
	while (!atomic_load_explicit(&flag, memory_order_relaxed))
		;
	int v = data;
	(void)v;
	atomic_store_explicit(&ack, 1, memory_order_relaxed);
	return NULL;
}

static void *setter(void *arg) {
	(void)arg;
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	data = 1;
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
