/* A waiter spins with atomic loads on a flag that another thread sets
   with a plain write (through a cast): a data race (-races), whichever
   write the spin loads read. */
#include <pthread.h>
#include <stdatomic.h>

static atomic_int flag;

static void *waiter(void *arg) {
	(void)arg;
	while (!atomic_load_explicit(&flag, memory_order_relaxed))
		;
	return 0;
}

static void *setter(void *arg) {
	(void)arg;
	atomic_store_explicit(&flag, 2, memory_order_relaxed);
	*(volatile int *)&flag = 0;
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, waiter, 0);
	pthread_create(&b, 0, setter, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
