// SV-COMP's indexer shape, smaller: threads insert keys into a shared
// open-addressing table with compare-and-swap and linear probing; the
// threads are created in a loop with a pointer to their slot of a local
// array of ids (&tid[i]). Each thread inserts 2 keys (w = 4*id + k + 1,
// all different); keys hash to the same bucket often (h = w % SIZE with
// SIZE 4, two threads: 4 keys in 4 buckets, so probing wraps around).
// main counts the filled slots: all 4 keys are in. BUG: a plain read and
// write instead of the CAS: a slot can be claimed twice (a lost key, and
// a data race).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define SIZE 4
#define NTHR 2
#define PER 2

static atomic_int table[SIZE];
#ifdef BUG
static int ptable[SIZE];
#endif

static int insert(int w)
{
	int h = (w * 3) % SIZE;
	for (int n = 0; n < SIZE; n++) {
#ifdef BUG
		if (ptable[h] == 0) {
			ptable[h] = w;
			return 1;
		}
#else
		int zero = 0;
		if (atomic_compare_exchange_strong(&table[h], &zero, w))
			return 1;
#endif
		h = (h + 1) % SIZE;
	}
	return 0;
}

static void *thread_routine(void *arg)
{
	int tid = *(int *)arg;
	for (int k = 0; k < PER; k++)
		assert(insert(4 * tid + k + 1));
	return NULL;
}

int main(void)
{
	pthread_t t[NTHR];
	int tid[NTHR];
	for (int i = 0; i < NTHR; i++) {
		tid[i] = i;
		pthread_create(&t[i], NULL, thread_routine, &tid[i]);
	}
	for (int i = 0; i < NTHR; i++)
		pthread_join(t[i], NULL);
	int filled = 0;
	for (int h = 0; h < SIZE; h++)
#ifdef BUG
		filled += ptable[h] != 0;
#else
		filled += atomic_load(&table[h]) != 0;
#endif
	assert(filled == NTHR * PER);
	return 0;
}
