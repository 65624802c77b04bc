// SV-COMP's fib_bench shape, with the updates under one mutex: thread A
// does i += j, thread B j += i, NUM times each (counted loops), starting
// from i = j = 1. Whatever the interleaving, neither exceeds the Fibonacci
// number F(2*NUM+2) (144 for NUM 5): the assertion in main holds, and
// i + j >= 2*NUM + 2 too (each round adds at least 1 to one of them).
// BUG: the bound checked is F(2*NUM+1) = 89, which the alternating order
// reaches: FAIL under every model (the mutex orders everything).
// RACY: no mutex; a data race under the C11 models, and with the
// updates torn by other threads' writes the bound still holds under sc.
#include <pthread.h>
#include <assert.h>

#ifndef NUM
#define NUM 5
#endif

static int i = 1, j = 1;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

#ifdef RACY
#define LOCK()
#define UNLOCK()
#else
#define LOCK() pthread_mutex_lock(&m)
#define UNLOCK() pthread_mutex_unlock(&m)
#endif

static void *t1(void *arg)
{
	(void)arg;
	for (int k = 0; k < NUM; k++) {
		LOCK();
		i += j;
		UNLOCK();
	}
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	for (int k = 0; k < NUM; k++) {
		LOCK();
		j += i;
		UNLOCK();
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
#ifdef BUG
	assert(i < 89 && j < 89);
#else
	assert(i <= 144 && j <= 144);
#endif
	return 0;
}
