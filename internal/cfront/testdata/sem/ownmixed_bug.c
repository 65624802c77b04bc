// A thread's arithmetic on values it reads back through accesses of
// other sizes than it wrote them with: a union's halves and bytes, a
// struct read as bytes, a memcpy between objects, a byte written into a
// wider variable (the SMT engine gave no answer in minutes before
// cfront forwarded a thread's own stores through mixed-size parts). A
// worker does the same on an object of its own while main runs.
#include <assert.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>

union U {
	uint64_t q;
	uint32_t d[2];
	uint16_t w[4];
	uint8_t b[8];
};
struct S {
	int16_t a;
	int32_t b;
	uint8_t c[2];
};
static union U u, v;
static struct S s;
static uint32_t g = 0x01020304u;
static union U own;

static void *worker(void *arg) {
	(void)arg;
	own.q = 0x0000000500000007ull;
	own.w[1] = (uint16_t)(own.d[0] * own.b[4]);
	own.d[1] = own.d[0] % 10u;
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	u.q = 0x1122334455667788ull;
	u.w[1] = (uint16_t)(u.b[3] * u.b[5]);
	u.d[1] = u.d[0] / (uint32_t)(u.b[0] | 1);
	s.a = (int16_t)-3;
	s.b = (int32_t)u.w[3] * s.a;
	((uint8_t *)&s.b)[1] = (uint8_t)(u.b[2] * 3u);
	s.c[1] = (uint8_t)(s.b % 7);
	memcpy(&v, &s, sizeof v);
	((uint8_t *)&g)[2] = (uint8_t)(g * v.b[4]);
	g = g * (uint32_t)v.w[0] + (uint32_t)(v.q % 1000u);
	pthread_join(t, 0);
	// The values of a native run (x86-64, little-endian).
	assert(u.w[1] == 4335u && u.d[1] == 2073935u);
	assert(s.b == -12893 && s.c[1] == 250u);
	assert(v.q == 18446688698696269821ull);
	assert(g == 4267702824u); // wrong: the native run gives ...825
	assert(own.w[1] == 35u && own.d[1] == 7u);
	return 0;
}
