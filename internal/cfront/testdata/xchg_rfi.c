/* Load buffering through a relaxed exchange's write read back early by
   its own thread: under RVWMO the C mapping's exchange (no .aq, no
   fence after it) does not order its read before that later load, so
   the exchange may read the value its own write passes on through y
   and t1 (the assertion fails). The graph engine refuses the revisit
   that would build it (riscv.go's rvLost) and leaves it to the SMT
   engine. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int x, y;

static void *t1(void *arg) {
	(void)arg;
	int r2 = atomic_load_explicit(&y, memory_order_relaxed);
	atomic_store_explicit(&x, r2, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, t1, NULL);
	int old = atomic_exchange_explicit(&x, 1, memory_order_relaxed);
	int r1 = atomic_load_explicit(&x, memory_order_relaxed);
	atomic_store_explicit(&y, r1, memory_order_relaxed);
	pthread_join(t, NULL);
	assert(old != 1);
	return 0;
}
