/* Load buffering through a relaxed exchange's write read back early by
   its own thread. Under -target riscv the exchange is one amoswap.w
   (clang-14), one event for RVWMO: rule 3 orders it before a later load
   of its thread that reads its store, so the cycle through y and t1 is
   forbidden (PASS). With the earlier mapping (a plain read-write pair,
   no "X") the exchange's read could come late and the assertion failed.
   The graph engine's rvLost refusal (riscv.go) is still exercised by
   TestRVNativeCrossCheck. */
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
