// SV-COMP's sigma shape: a malloc'ed array with one slot per thread; each
// thread takes a slot number from a shared counter and writes 1 there;
// main sums the slots after the joins: every slot was written once, the
// sum is N. The counter is taken with fetch_add (relaxed: the slot number
// only has to be unique). BUG: the counter is a plain int read and
// incremented (two threads may take the same slot: a data race, and a
// lost slot under sc).
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <assert.h>

#ifndef N
#define N 3
#endif

static int *array;
#ifdef BUG
static int next;
#else
static atomic_int next;
#endif

static void *thread(void *arg)
{
	(void)arg;
#ifdef BUG
	int slot = next;
	next = slot + 1;
#else
	int slot = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
#endif
	array[slot] = 1;
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	array = malloc(sizeof(int) * N);
	if (!array)
		return 0;
	for (int i = 0; i < N; i++)
		array[i] = 0;
	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, thread, NULL);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	int sum = 0;
	for (int i = 0; i < N; i++)
		sum += array[i];
	assert(sum == N);
	free(array);
	return 0;
}
