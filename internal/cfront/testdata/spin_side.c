/* A wait loop with a side effect: each iteration counts itself in a
   shared variable, so it is no spin loop (it writes): it is unrolled to
   -bound, and a bound too small for it is reported (BOUND). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int flag, tries;

static void *waiter(void *arg) {
	(void)arg;
	while (!atomic_load_explicit(&flag, memory_order_acquire))
		atomic_fetch_add_explicit(&tries, 1, memory_order_relaxed);
	return 0;
}

static void *setter(void *arg) {
	(void)arg;
	atomic_store_explicit(&flag, 1, memory_order_release);
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, waiter, 0);
	pthread_create(&b, 0, setter, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(atomic_load_explicit(&tries, memory_order_relaxed) < 100);
	return 0;
}
