/* Three identical workers, each trying a compare-and-swap lock once
   (no loop: a worker that fails gives up) and incrementing a plain
   counter under it. Symmetric workers that never stop before their end:
   the graph engine reduces them (symmetry). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define N 3

static atomic_int lock;
static int counter;
static atomic_int wins;

static void *worker(void *arg) {
	(void)arg;
	int z = 0;
	if (atomic_compare_exchange_strong_explicit(&lock, &z, 1, memory_order_acquire, memory_order_relaxed)) {
		counter = counter + 1;
		atomic_fetch_add_explicit(&wins, 1, memory_order_relaxed);
		atomic_store_explicit(&lock, 0, memory_order_release);
	}
	return NULL;
}

int main(void) {
	pthread_t th[N];
	for (int i = 0; i < N; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < N; i++)
		pthread_join(th[i], NULL);
	assert(counter == atomic_load(&wins));
	assert(counter >= 1);
	return 0;
}
