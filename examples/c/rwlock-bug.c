/* Reader-writer spin lock on one word: bit 0 is the writer, each reader
   adds 2. The writer writes two plain words under the write lock; the
   reader reads them under the read lock and must see them equal.

   BUG: the write unlock is a relaxed read-modify-write instead of a
   release: a reader may see one data word written and not the other. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define WRITER 1u
#define READER 2u

static atomic_uint rw;
static int a, b;

static void read_lock(void) {
	for (;;) {
		unsigned v = atomic_fetch_add_explicit(&rw, READER, memory_order_acquire);
		if (!(v & WRITER))
			return;
		atomic_fetch_sub_explicit(&rw, READER, memory_order_relaxed);
		while (atomic_load_explicit(&rw, memory_order_relaxed) & WRITER)
			;
	}
}

static void read_unlock(void) {
	atomic_fetch_sub_explicit(&rw, READER, memory_order_release);
}

static void write_lock(void) {
	for (;;) {
		while (atomic_load_explicit(&rw, memory_order_relaxed) != 0)
			;
		unsigned expected = 0;
		if (atomic_compare_exchange_strong_explicit(&rw, &expected, WRITER, memory_order_acquire,
		                                            memory_order_relaxed))
			return;
	}
}

static void write_unlock(void) {
	atomic_fetch_sub_explicit(&rw, WRITER, memory_order_relaxed); /* BUG: was memory_order_release */
}

static void *writer(void *arg) {
	(void)arg;
	write_lock();
	a = a + 1;
	b = b + 1;
	write_unlock();
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	read_lock();
	int ra = a;
	int rb = b;
	read_unlock();
	assert(ra == rb);
	return NULL;
}

int main(void) {
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	assert(a == 1 && b == 1);
	assert(atomic_load_explicit(&rw, memory_order_relaxed) == 0);
	return 0;
}
