/* Three identical workers meet at a counting barrier (a spin loop on the
   count) and then check that every one of them has arrived: correct. A
   worker may stop in its spin loop on a stale count; the symmetry
   reduction keeps one execution per swap of workers. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int n;

static void *worker(void *arg) {
	(void)arg;
	atomic_fetch_add_explicit(&n, 1, memory_order_release);
	while (atomic_load_explicit(&n, memory_order_acquire) != 3)
		;
	assert(atomic_load_explicit(&n, memory_order_relaxed) == 3);
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
