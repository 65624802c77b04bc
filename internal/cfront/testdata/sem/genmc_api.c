// A program written for GenMC: <genmc.h> (Musket ships one declaring the
// calls it implements), __VERIFIER_assume in a thread, an annotated spin
// loop, threads never joined. (genmc.h was "file not found".)
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
#include <genmc.h>

atomic_int x;
int d;

void *thread_1(void *unused)
{
	d = __VERIFIER_nondet_int();
	__VERIFIER_assume(d > 0);
	atomic_store_explicit(&x, 1, memory_order_release);
	return NULL;
}

void *thread_2(void *unused)
{
	int r;
	do {
		__VERIFIER_spin_start();
		r = atomic_load_explicit(&x, memory_order_acquire);
		__VERIFIER_spin_end(r == 1);
	} while (r != 1);
	assert(d > 1); // d may be 1
	return NULL;
}

int main()
{
	pthread_t t1, t2;
	if (pthread_create(&t1, NULL, thread_1, NULL))
		abort();
	if (pthread_create(&t2, NULL, thread_2, NULL))
		abort();
	return 0;
}
