/* Seqlock with __atomic builtins: one writer, two readers (3 threads);
 * data words are relaxed atomics; -DNOFENCE drops the reader's acquire
 * fence (a bug under weak models). */
#include <pthread.h>
#include <assert.h>

unsigned seq;
int d1, d2;

void *writer(void *arg)
{
	for (int i = 1; i <= 2; i++) {
		unsigned s = __atomic_load_n(&seq, __ATOMIC_RELAXED);
		__atomic_store_n(&seq, s + 1, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		__atomic_store_n(&d1, i, __ATOMIC_RELAXED);
		__atomic_store_n(&d2, i, __ATOMIC_RELAXED);
		__atomic_store_n(&seq, s + 2, __ATOMIC_RELEASE);
	}
	return NULL;
}

void *reader(void *arg)
{
	unsigned s0, s1;
	int a, b;
	do {
		s0 = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
		a = __atomic_load_n(&d1, __ATOMIC_RELAXED);
		b = __atomic_load_n(&d2, __ATOMIC_RELAXED);
#ifndef NOFENCE
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
		s1 = __atomic_load_n(&seq, __ATOMIC_RELAXED);
	} while ((s0 & 1) || s0 != s1);
	assert(a == b);
	return NULL;
}

int main(void)
{
	pthread_t w, r1, r2;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r1, NULL, reader, NULL);
	pthread_create(&r2, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r1, NULL);
	pthread_join(r2, NULL);
	return 0;
}
