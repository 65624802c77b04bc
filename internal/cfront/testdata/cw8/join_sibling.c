// A worker joins its sibling: main creates a producer, stores its id in
// a global array, then creates a consumer that joins the producer (not
// main) before reading the producer's plain result. The join orders the
// producer's write before the consumer's read (POSIX: the thread's
// termination synchronizes with the join's return), so no race and the
// value is 7. main joins the consumer only. BUG: the consumer waits on
// a relaxed flag instead of joining: a data race, and the read may see 0
// on weak targets. WRONGVAL: the consumer expects 8 (FAIL under every
// model, as natively; Musket said PASS before: a join whose thread id is
// read from memory waited only for the joiner's own children, so the
// consumer waited forever and its assertions were never reached).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

static pthread_t tids[2];
static int result;
static atomic_int done;

static void *producer(void *arg)
{
	(void)arg;
	result = 7;
	atomic_store_explicit(&done, 1, memory_order_relaxed);
	return (void *)42;
}

static void *consumer(void *arg)
{
	(void)arg;
#ifdef BUG
	while (!atomic_load_explicit(&done, memory_order_relaxed))
		;
#else
	void *ret;
	int rc = pthread_join(tids[0], &ret);
	assert(rc == 0 && ret == (void *)42);
#endif
#ifdef WRONGVAL
	assert(result == 8);
#else
	assert(result == 7);
#endif
	return NULL;
}

int main(void)
{
	pthread_create(&tids[0], NULL, producer, NULL);
	pthread_create(&tids[1], NULL, consumer, NULL);
	pthread_join(tids[1], NULL);
#ifdef BUG
	pthread_join(tids[0], NULL);
#endif
	return 0;
}
