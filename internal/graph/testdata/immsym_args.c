/* Three threads run one function, with two different constant
   arguments (pointers to different cells of a table of increments):
   they are not copies of one another, and the symmetry reduction must
   stay off. Each adds its increment to x by a relaxed load and a
   separate store, so updates may be lost: x can end at 1 (the thread
   adding 2 lost, one of those adding 1 last), which the assertion says
   it cannot. A reduction that took the threads for copies would keep
   the execution in which the first thread's store comes first only,
   and could miss it. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int x;
static const int incs[2] = {1, 2};

static void *worker(void *arg) {
	int v = *(const int *)arg;
	int old = atomic_load_explicit(&x, memory_order_relaxed);
	atomic_store_explicit(&x, old + v, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t t[3];
	pthread_create(&t[0], NULL, worker, (void *)&incs[1]);
	pthread_create(&t[1], NULL, worker, (void *)&incs[0]);
	pthread_create(&t[2], NULL, worker, (void *)&incs[0]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(atomic_load_explicit(&x, memory_order_relaxed) != 1);
	return 0;
}
