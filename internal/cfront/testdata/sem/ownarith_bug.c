// ownarith.c with a wrong expectation: own[1] is 4, so the assertion at
// line 38 fails (natively too); the SMT engine must find it under every
// model.
#include <assert.h>
#include <stdint.h>
#include <pthread.h>

static int16_t a = 300;
static int8_t b = -7;
static uint32_t g;
static int64_t q, r;
static uint16_t arr[4];
static uint32_t own[2];
static _Atomic int flag;

static void *worker(void *arg) {
	int id = (int)(intptr_t)arg;
	own[id] = own[id] * 7u + (uint32_t)id;
	own[id] = own[id] * own[id] + 3u;
	flag = 1;
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, worker, (void *)1);
	a = (int16_t)(a + 1);
	b = (int8_t)(b - 2);
	g = (uint32_t)a * (uint32_t)b;
	for (int i = 0; i < 3; i++)
		arr[i] = (uint16_t)(arr[i] + g * (uint32_t)(i + 1));
	q = (int64_t)arr[1] / (int64_t)((b & 0x7f) | 1);
	r = (int64_t)arr[2] % (int64_t)(a | 1);
	g = g * (uint32_t)arr[0] + (uint32_t)(q * r);
	pthread_join(t, 0);
	assert(a == 301 && b == -9);
	assert(g == (uint32_t)(301 * -9) * (uint16_t)(uint32_t)(301 * -9) + (uint32_t)((int64_t)(uint16_t)(2u * (uint32_t)(301 * -9)) / ((-9 & 0x7f) | 1) * ((int64_t)(uint16_t)(3u * (uint32_t)(301 * -9)) % (301 | 1))));
	assert(own[1] == 5u && own[0] == 0u);
	assert(flag == 1);
	return 0;
}
