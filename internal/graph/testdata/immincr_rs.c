/* IMM's release sequences and sw through fences, for the incremental
   IMM check (immincr.go): a release fence before two relaxed writes to x
   (rs: [W] ; sb-loc ; [W]), a relaxed fetch_add continuing the sequence
   (rf ; rmw), a reader whose acquire fence synchronises with the fence
   when it reads any of the three writes, and an acquire exchange on y
   reading a release store, then x again. The plain data is read only
   after synchronising: no race, and the assertion holds. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int x, y;
static int data;

static void *writer(void *arg) {
	(void)arg;
	data = 1;
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&x, 1, memory_order_relaxed);
	atomic_store_explicit(&x, 2, memory_order_relaxed);
	atomic_store_explicit(&y, 1, memory_order_release);
	return NULL;
}

static void *adder(void *arg) {
	(void)arg;
	atomic_fetch_add_explicit(&x, 10, memory_order_relaxed);
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	int r = atomic_load_explicit(&x, memory_order_relaxed);
	if (r == 1 || r == 2 || r >= 11) {
		atomic_thread_fence(memory_order_acquire);
		assert(data == 1);
	}
	if (atomic_exchange_explicit(&y, 2, memory_order_acquire) == 1)
		assert(atomic_load_explicit(&x, memory_order_relaxed) != 0);
	return NULL;
}

int main(void) {
	pthread_t a, b, c;
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, adder, NULL);
	pthread_create(&c, NULL, reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	return 0;
}
