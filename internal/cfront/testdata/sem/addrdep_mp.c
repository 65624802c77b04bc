// Message passing through an address dependency: the reader loads an
// index (relaxed) and reads data[idx] through it. Compiled for a
// hardware target the second read's address depends on the first read,
// which orders the two reads on AArch64, Power and RISC-V (and x86 keeps
// reads in order anyway); the writer's release store orders its writes.
// So the reader never sees the new index with the old data. (Under C11
// itself data[idx] races with the writer's plain store: check it with a
// -target.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data[2];
atomic_int idx;

void *writer(void *arg) {
	(void)arg;
	data[1] = 42;
	atomic_store_explicit(&idx, 1, memory_order_release);
	return 0;
}

void *reader(void *arg) {
	(void)arg;
	int i = atomic_load_explicit(&idx, memory_order_relaxed);
	int v = data[i];
	assert(!(i == 1 && v != 42));
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, reader, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
