// A thread waits on a plain flag (pthread-atomic style, racy by design).
// Under SC and x86 it sees the flag eventually: no thread waits forever,
// and the data is there. -O1 hoisted the flag's load out of the loop (as
// it may in a race-free program): -liveness said LIVELOCK under sc and
// x86. On AArch64 the two stores may be seen out of order: FAIL.
#include <pthread.h>
#include <assert.h>
int flag, data;
void *producer(void *arg) {
	data = 1;
	flag = 1;
	return 0;
}
void *consumer(void *arg) {
	while (flag == 0) {}
	assert(data == 1);
	return 0;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, producer, 0);
	pthread_create(&b, 0, consumer, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
