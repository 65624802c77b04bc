// Peterson's lock with _Bool flags in an array of atomic_bool and a
// uint8_t turn: one-byte atomics side by side (separate memory
// locations, no tearing: C11 3.14). Both flags and turn seq_cst: mutual
// exclusion holds under every model (PASS). BUG: the flag stores are
// release and the loads acquire (store buffering between a flag store and
// the other flag's load: both enter under the C11 models and the
// hardware targets but aarch64, where a release store and a later
// acquire load stay ordered; sc PASS).
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <assert.h>

#ifdef BUG
#define ST memory_order_release
#define LD memory_order_acquire
#else
#define ST memory_order_seq_cst
#define LD memory_order_seq_cst
#endif

static atomic_bool flag[2];
static _Atomic uint8_t turn;
static atomic_int inside;

static void *thread(void *arg)
{
	int me = (int)(long)arg, other = 1 - me;
	atomic_store_explicit(&flag[me], true, ST);
	atomic_store_explicit(&turn, (uint8_t)other, ST);
	while (atomic_load_explicit(&flag[other], LD) && atomic_load_explicit(&turn, LD) == other)
		;
	int n = atomic_fetch_add_explicit(&inside, 1, memory_order_relaxed);
	assert(n == 0);
	atomic_fetch_sub_explicit(&inside, 1, memory_order_relaxed);
	atomic_store_explicit(&flag[me], false, memory_order_release);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, thread, (void *)0L);
	pthread_create(&b, NULL, thread, (void *)1L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
