// Workers write res[id], an element chosen by their argument, while main
// computes on a union and an array of its own (products, remainders, a
// pointer loop) that it reads back through accesses of other sizes. The
// SMT engine's choice among the cells of a pointer access read
// syntactically let every thread write every cell whose address is taken
// (res[id]: any of them), so none of main's arithmetic was forwarded and
// the check had no answer in minutes under sc and rc11.
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
static uint32_t arr[4] = {3, 5, 7, 11};
static uint64_t res[2];

static void *worker(void *arg) {
	int id = (int)(intptr_t)arg;
	res[id] = (uint64_t)id * 1000u + 7u;
	return 0;
}

int main(void) {
	pthread_t t0, t1;
	pthread_create(&t0, 0, worker, (void *)0);
	pthread_create(&t1, 0, worker, (void *)1);
	u.q = 0x0123456789abcdefull;
	for (uint32_t *p = &arr[0]; p < &arr[4]; p++)
		*p = *p * u.b[1] + u.w[3] % *p;
	u.d[1] = arr[2] * arr[3] ^ u.d[0];
	u.b[2] = (uint8_t)(u.w[0] * u.b[7] / (arr[0] | 1));
	pthread_join(t0, 0);
	pthread_join(t1, 0);
	// The values of a native run (x86-64, little-endian).
	assert(arr[0] == 615u && arr[1] == 1026u && arr[2] == 1439u && arr[3] == 2260u);
	assert(u.q == 9915327979639000559ull);
	assert(res[0] == 7u && res[1] == 1007u);
	return 0;
}
