/* A reader that loops as many times as the count it reads (4 once the
   writer has published it): release on the count's store and acquire on
   its load order the plain datum, but with -bound 2 the loop's path with
   4 iterations is past the bound, so the repaired program is correct
   only within the bound (musket check: BOUND), and musket fix says so
   (exit status 3). */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int n;
int data;

static void *writer(void *arg) {
	(void)arg;
	data = 1;
	atomic_store_explicit(&n, 4, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	int k = atomic_load_explicit(&n, memory_order_relaxed);
	int s = 0;
	for (int i = 0; i < k; i++)
		s += data;
	pthread_join(t, NULL);
	assert(s == 0 || s == k);
	return 0;
}
