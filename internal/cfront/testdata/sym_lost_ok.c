/* The counter of sym_lost.c incremented with a fetch-and-add and read by
   each worker after a release/acquire handshake: no update is lost.
   Symmetric workers, reduced by the graph engine. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define N 3

static atomic_int counter;
static atomic_int flag;
static atomic_int bad;

static void *worker(void *arg) {
	(void)arg;
	atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
	atomic_store_explicit(&flag, 1, memory_order_release);
	if (atomic_load_explicit(&flag, memory_order_acquire))
		if (atomic_load_explicit(&counter, memory_order_relaxed) < 1)
			atomic_store_explicit(&bad, 1, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t th[N];
	for (int i = 0; i < N; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < N; i++)
		pthread_join(th[i], NULL);
	assert(atomic_load(&counter) == N && !atomic_load(&bad) && atomic_load(&flag));
	return 0;
}
