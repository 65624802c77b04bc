/* Message passing with a plain datum and a relaxed flag: the reader's
   read of data races with the writer's write. Release on the flag's
   store and acquire on its load order them (musket fix -races). */
#include <pthread.h>
#include <stdatomic.h>

int data, seen;
atomic_int flag;

static void *writer(void *arg) {
	(void)arg;
	data = 1;
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	if (atomic_load_explicit(&flag, memory_order_relaxed) == 1) {
		seen = data;
	}
	pthread_join(t, NULL);
	return 0;
}
