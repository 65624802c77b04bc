// GenMC's spin-loop annotations: __VERIFIER_spin_start() begins an
// iteration and __VERIFIER_spin_end(c) ends it, a false c marking a
// failed spin. Message passing through an annotated wait. (They were
// refused.)
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

void __VERIFIER_spin_start(void);
void __VERIFIER_spin_end(int);

atomic_int flag;
int data;

void *producer(void *arg)
{
	data = 42;
	atomic_store_explicit(&flag, 1, memory_order_release);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, producer, NULL);
	int r;
	do {
		__VERIFIER_spin_start();
		r = atomic_load_explicit(&flag, memory_order_acquire);
		__VERIFIER_spin_end(r != 0);
	} while (r == 0);
	assert(data == 42);
	pthread_join(t, NULL);
	return 0;
}
