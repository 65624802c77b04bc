/* Three threads created and joined in loops, each adding 1 twice in a
   counted loop: every loop runs a constant number of times, so the
   program passes at -bound 1 (no BOUND verdict). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int x;

static void *worker(void *arg) {
	(void)arg;
	for (int j = 0; j < 2; j++)
		atomic_fetch_add_explicit(&x, 1, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load_explicit(&x, memory_order_relaxed) == 6);
	return 0;
}
