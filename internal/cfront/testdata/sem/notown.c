// main writes x, then a thread it joins writes x too: main's read after
// the join reads the thread's store, not main's own (forwarding a
// thread's own stores must not apply to a variable another thread
// writes). The assertion fails on every model and natively.
#include <assert.h>
#include <pthread.h>

static int x;

static void *worker(void *arg) {
	x = x * 3 + 2;
	return 0;
}

int main(void) {
	pthread_t t;
	x = 5;
	int y = x * x;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, 0);
	int z = x * y;
	assert(z == 125);
	return 0;
}
