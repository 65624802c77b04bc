/* Message passing from a loop: the writer stores data then a relaxed
   flag five times; the reader, seeing the last flag, reads data. clang
   -O1 sinks the plain store of data after the loop (past the relaxed
   flag stores), so the racing store is po-after the flag's store in the
   compiled program; release on the flag's store (which forbids that
   motion) and acquire on its load repair it (musket fix). */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

int data;
atomic_int flag;

static void *writer(void *arg) {
	(void)arg;
	for (int i = 0; i < 5; i++) {
		data = i + 1;
		atomic_store_explicit(&flag, i + 1, memory_order_relaxed);
	}
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	int f = atomic_load_explicit(&flag, memory_order_relaxed);
	if (f == 5) {
		assert(data == 5);
	}
	pthread_join(t, NULL);
	return 0;
}
