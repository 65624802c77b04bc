/* Three identical workers; the first to arrive waits for a flag that no
   thread sets, so every execution has a thread stopped for good in its
   spin loop, and the third to arrive fails its assertion: the failure is
   only in blocked executions. The graph engine's symmetry reduction
   cannot vouch for such executions and must give itself up (the verdict
   stays FAIL). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int n, go;

static void *worker(void *arg) {
	(void)arg;
	int v = atomic_fetch_add(&n, 1);
	if (v == 0)
		while (!atomic_load(&go))
			;
	assert(v != 2);
	return NULL;
}

int main(void) {
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
