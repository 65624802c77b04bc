// A union main writes whole, then a joined thread writes one of its
// halves: main's later reads of the union must see the thread's half
// (the cells the thread writes are not main's own, so they are not
// forwarded from main's store). The native run aborts at the assertion.
#include <assert.h>
#include <stdint.h>
#include <pthread.h>

union U {
	uint64_t q;
	uint32_t d[2];
	uint16_t w[4];
	uint8_t b[8];
};
static union U u;

static void *worker(void *arg) {
	(void)arg;
	u.w[1] = (uint16_t)0xbeef;
	return 0;
}

int main(void) {
	pthread_t t;
	u.q = 0x1122334455667788ull;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, 0);
	uint32_t x = u.d[0] * (uint32_t)u.b[0];
	assert(x == 0x55667788u * 0x88u);
	return 0;
}
