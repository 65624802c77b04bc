/* Sequence lock, as written for C11 by Boehm ("Can seqlocks get along
   with programming language memory models?", MSPC 2012): the writer makes
   the sequence number odd, writes the data, makes it even again; the
   reader waits for an even number, reads the data, and retries unless
   the number changed meanwhile. The writer writes the same value to both
   data words: a reader that accepts its reads must see them equal.

   BUG: the reader has no acquire fence between its reads of the data
   and its second read of the sequence number: the data reads may be
   satisfied after it, and a torn pair accepted. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_uint seq;
static atomic_int data1, data2;

static void *writer(void *arg) {
	(void)arg;
	unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
	atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&data1, 1, memory_order_relaxed);
	atomic_store_explicit(&data2, 1, memory_order_relaxed);
	atomic_store_explicit(&seq, s + 2, memory_order_release);
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	unsigned s1, s2;
	int d1, d2;
	do {
		while ((s1 = atomic_load_explicit(&seq, memory_order_acquire)) & 1)
			;
		d1 = atomic_load_explicit(&data1, memory_order_relaxed);
		d2 = atomic_load_explicit(&data2, memory_order_relaxed);
		/* BUG: fence removed: atomic_thread_fence(memory_order_acquire); */
		s2 = atomic_load_explicit(&seq, memory_order_relaxed);
	} while (s1 != s2);
	assert(d1 == d2);
	return NULL;
}

int main(void) {
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	assert(atomic_load_explicit(&seq, memory_order_relaxed) == 2);
	return 0;
}
