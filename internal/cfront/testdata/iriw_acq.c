/* IRIW in the style of GenMC's litmus tests: atomic_int globals, four
 * threads thread_1..thread_4 with 'void *unused', 'if (pthread_create(...))
 * abort();', the outcome checked in main after the joins. With acquire
 * loads the weak outcome is allowed by RC11 and IMM (and by Power), with
 * -DSC (all seq_cst) it is forbidden everywhere. */
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifdef SC
#define LD memory_order_seq_cst
#define ST memory_order_seq_cst
#else
#define LD memory_order_acquire
#define ST memory_order_release
#endif

atomic_int x;
atomic_int y;
int a, b, c, d;

void *thread_1(void *unused) { atomic_store_explicit(&x, 1, ST); return NULL; }
void *thread_2(void *unused) { atomic_store_explicit(&y, 1, ST); return NULL; }
void *thread_3(void *unused)
{
	a = atomic_load_explicit(&x, LD);
	b = atomic_load_explicit(&y, LD);
	return NULL;
}
void *thread_4(void *unused)
{
	c = atomic_load_explicit(&y, LD);
	d = atomic_load_explicit(&x, LD);
	return NULL;
}

int main()
{
	pthread_t t1, t2, t3, t4;
	if (pthread_create(&t1, NULL, thread_1, NULL)) abort();
	if (pthread_create(&t2, NULL, thread_2, NULL)) abort();
	if (pthread_create(&t3, NULL, thread_3, NULL)) abort();
	if (pthread_create(&t4, NULL, thread_4, NULL)) abort();
	if (pthread_join(t1, NULL)) abort();
	if (pthread_join(t2, NULL)) abort();
	if (pthread_join(t3, NULL)) abort();
	if (pthread_join(t4, NULL)) abort();
	assert(!(a == 1 && b == 0 && c == 1 && d == 0));
	return 0;
}
