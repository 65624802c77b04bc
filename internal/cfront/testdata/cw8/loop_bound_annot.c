// Dartagnan's loop annotation: __VERIFIER_loop_bound(k) before a loop is
// that loop's bound in place of -bound (a loop whose body runs k-1 times
// needs k). Here a producer fills NITEMS slots and a consumer drains
// them in a polling loop annotated with NITEMS + 1: its rounds that take
// nothing are a spin loop's (cut), the NITEMS rounds that take an item
// fit the annotation, so -bound 2 is enough. -D NOANNOT: no annotation,
// and -bound 2 reaches the bound (BOUND; -bound 4 is enough).
// Correct: release/acquire on count: every item read is the one written.
// BUG: relaxed publication (weak targets and C11 models: stale item).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

extern void __VERIFIER_loop_bound(int);

#define NITEMS 3

#ifdef BUG
#define REL memory_order_relaxed
#define ACQ memory_order_relaxed
#else
#define REL memory_order_release
#define ACQ memory_order_acquire
#endif

static int items[NITEMS];
static atomic_int count;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITEMS; i++) {
		items[i] = 10 * (i + 1);
		atomic_store_explicit(&count, i + 1, REL);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	int taken = 0, sum = 0;
#ifndef NOANNOT
	__VERIFIER_loop_bound(NITEMS + 1);
#endif
	while (taken < NITEMS) {
		int c = atomic_load_explicit(&count, ACQ);
		if (c > taken) {
			sum += items[taken];
			taken++;
		}
	}
	assert(sum == 60);
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	return 0;
}
