// GenMC's test style: the thread count comes from -D N (default 3),
// threads are created in a loop with their index cast to a pointer, and
// each writes its own slot of an atomic array and reads the next one's
// ((i + 1) % N): a ring of store buffering. Under sc the thread whose
// read comes last in the order reads after every write, a 1, so "every
// thread read 0" is forbidden. Default: seq_cst
// accesses, the outcome is forbidden under every model (PASS). BUG:
// release stores and acquire loads: store buffering is allowed by the
// C11 models and x86 (TSO), aarch64, power, riscv (FAIL; sc PASS).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifndef N
#define N 3
#endif

#ifdef BUG
#define ST memory_order_release
#define LD memory_order_acquire
#else
#define ST memory_order_seq_cst
#define LD memory_order_seq_cst
#endif

static atomic_int x[N];
static int r[N];

static void *thread_n(void *arg)
{
	long i = (long)arg;
	atomic_store_explicit(&x[i], 1, ST);
	r[i] = atomic_load_explicit(&x[(i + 1) % N], LD);
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], NULL, thread_n, (void *)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	int zeros = 0;
	for (int i = 0; i < N; i++)
		zeros += r[i] == 0;
	assert(zeros < N);
	return 0;
}
