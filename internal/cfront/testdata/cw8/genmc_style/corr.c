// The body of a GenMC-style test, included by the variants (the test
// folder's layout: variants/NAME0.c includes "../NAME.c" and only varies
// main). Two writers write 1 and 2 to x with relaxed stores; two readers
// read x twice each. The writes are of different threads, so a reader may
// see them in either order, but all threads agree on one coherence order:
// two readers never see them in opposite orders (CoRR with two readers).
// Every model keeps coherence: PASS (main checks after the joins).
// BUG: the reader reads y after x, where one writer writes y after x
// with relaxed stores (message passing without release/acquire): FAIL on
// the weak targets and under the C11 models, PASS under sc and x86.
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;

void *thread_1(void *unused)
{
	atomic_store_explicit(&x, 1, memory_order_relaxed);
#ifdef BUG
	atomic_store_explicit(&y, 1, memory_order_relaxed);
#endif
	return NULL;
}

void *thread_2(void *unused)
{
	atomic_store_explicit(&x, 2, memory_order_relaxed);
	return NULL;
}

int a1, a2, b1, b2;

void *thread_3(void *unused)
{
#ifdef BUG
	int r1 = atomic_load_explicit(&y, memory_order_relaxed);
	int r2 = atomic_load_explicit(&x, memory_order_relaxed);
	assert(!(r1 == 1 && r2 == 0));
#else
	a1 = atomic_load_explicit(&x, memory_order_relaxed);
	a2 = atomic_load_explicit(&x, memory_order_relaxed);
#endif
	return NULL;
}

void *thread_4(void *unused)
{
	b1 = atomic_load_explicit(&x, memory_order_relaxed);
	b2 = atomic_load_explicit(&x, memory_order_relaxed);
	return NULL;
}

void check(void)
{
	/* No two readers see the writes 1 and 2 in opposite orders. */
	assert(!(a1 == 1 && a2 == 2 && b1 == 2 && b2 == 1));
	assert(!(a1 == 2 && a2 == 1 && b1 == 1 && b2 == 2));
}
