/* Three identical workers increment an atomic counter with a relaxed
   load and a separate store (not a read-modify-write): an update can be
   lost, so the assertion fails. The workers are symmetric; the graph
   engine, reducing them, must still find the failure. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define N 3

static atomic_int counter;

static void *worker(void *arg) {
	(void)arg;
	int v = atomic_load_explicit(&counter, memory_order_relaxed);
	atomic_store_explicit(&counter, v + 1, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t th[N];
	for (int i = 0; i < N; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < N; i++)
		pthread_join(th[i], NULL);
	assert(atomic_load(&counter) == N);
	return 0;
}
