/* Three identical workers created in a loop: each takes a ticket with a
   relaxed fetch-and-add, publishes it and counts the tickets it sees. The
   workers are symmetric: the graph engine explores one execution per
   class of executions that swapping workers relates. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define N 3

static atomic_int next;
static atomic_int last;
static atomic_int seen;

static void *worker(void *arg) {
	(void)arg;
	int t = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
	atomic_store_explicit(&last, t + 1, memory_order_release);
	if (atomic_load_explicit(&last, memory_order_acquire) > 0)
		atomic_fetch_add_explicit(&seen, 1, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t th[N];
	for (int i = 0; i < N; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < N; i++)
		pthread_join(th[i], NULL);
	assert(atomic_load(&next) == N);
	assert(atomic_load(&seen) == N);
	assert(atomic_load(&last) >= 1);
	return 0;
}
