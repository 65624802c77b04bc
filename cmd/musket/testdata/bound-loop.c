/* A loop whose trip count is read from memory: -bound 1 cuts it (BOUND). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
static atomic_int x, y;
static void *worker(void *arg) {
	(void)arg;
	atomic_store_explicit(&x, 3, memory_order_relaxed);
	return NULL;
}
int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	int n = atomic_load_explicit(&x, memory_order_relaxed);
	for (int i = 0; i < n; i++)
		atomic_fetch_add_explicit(&y, 1, memory_order_relaxed);
	pthread_join(t, NULL);
	assert(atomic_load_explicit(&y, memory_order_relaxed) <= 3);
	return 0;
}
