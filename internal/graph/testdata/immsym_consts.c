/* Two functions alike but for the constant each writes: a thread of one
   is no copy of a thread of the other, and the symmetry reduction must
   not swap them.
   Message passing with a relaxed flag: under IMM the reader may see the
   flag of writer_two and a stale data value, so the assertion fails. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int data, flag;

static void *writer_one(void *arg) {
	(void)arg;
	atomic_store_explicit(&data, 1, memory_order_relaxed);
	atomic_store_explicit(&flag, 1, memory_order_release);
	return NULL;
}

static void *writer_two(void *arg) {
	(void)arg;
	atomic_store_explicit(&data, 2, memory_order_relaxed);
	atomic_store_explicit(&flag, 2, memory_order_relaxed);
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	int f = atomic_load_explicit(&flag, memory_order_acquire);
	int d = atomic_load_explicit(&data, memory_order_relaxed);
	assert(f != 2 || d != 0);
	return NULL;
}

int main(void) {
	pthread_t t[4];
	pthread_create(&t[0], NULL, writer_one, NULL);
	pthread_create(&t[1], NULL, writer_one, NULL);
	pthread_create(&t[2], NULL, writer_two, NULL);
	pthread_create(&t[3], NULL, reader, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
