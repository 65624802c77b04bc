// A global struct of arrays (per-CPU statistics): each of two workers
// owns one row of 64-bit counters (its own slot, no lock), and a shared
// total of 64-bit bytes under a mutex that starts above 2^32 so that
// the 64-bit arithmetic matters. main sums the rows after the joins.
// BUG: both workers take row 0 (the index comes from arg & 0): a data
// race on the row's counters, and under sc a lost update.
#include <pthread.h>
#include <stdint.h>
#include <assert.h>

#define NCPU 2
#define NSTAT 3

struct stats {
	uint64_t count[NCPU][NSTAT];
	uint32_t events[NCPU];
	pthread_mutex_t lock;
	uint64_t total_bytes;
};

static struct stats st = { .lock = PTHREAD_MUTEX_INITIALIZER, .total_bytes = 0x100000000ull };

static void *worker(void *arg)
{
#ifdef BUG
	long cpu = (long)arg & 0;
#else
	long cpu = (long)arg;
#endif
	for (int k = 0; k < NSTAT; k++)
		st.count[cpu][k] += (uint64_t)(k + 1) << 32;
	st.events[cpu]++;
	pthread_mutex_lock(&st.lock);
	st.total_bytes += 0xFFFFFFFFull;
	pthread_mutex_unlock(&st.lock);
	return NULL;
}

int main(void)
{
	pthread_t t[NCPU];
	for (long i = 0; i < NCPU; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < NCPU; i++)
		pthread_join(t[i], NULL);
	uint64_t sum = 0;
	uint32_t ev = 0;
	for (int c = 0; c < NCPU; c++) {
		for (int k = 0; k < NSTAT; k++)
			sum += st.count[c][k];
		ev += st.events[c];
	}
	assert(ev == NCPU);
	assert(sum == 12ull << 32);
	assert(st.total_bytes == 0x100000000ull + 2 * 0xFFFFFFFFull);
	return 0;
}
