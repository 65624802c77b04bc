/* Three threads run the same function, two of them with the same
   argument and one with another: each adds its argument to a sum, so the threads with different arguments are not copies of
   each other and the symmetry reduction must not swap them. The final
   sum is checked. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

static atomic_int sum;

static void *worker(void *arg) {
	int k = (int)(intptr_t)arg;
	atomic_fetch_add_explicit(&sum, k, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t t[3];
	pthread_create(&t[0], NULL, worker, (void *)1);
	pthread_create(&t[1], NULL, worker, (void *)2);
	pthread_create(&t[2], NULL, worker, (void *)1);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load_explicit(&sum, memory_order_relaxed) == 4);
	return 0;
}
