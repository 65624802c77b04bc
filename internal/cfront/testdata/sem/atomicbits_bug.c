// Workers and, or and xor shared atomics of every width with constants
// (a16 is 0x8001, not 0x8000: the results do not depend on the interleaving) and write res[id]; main
// computes on a union of its own. The SMT engine encodes a bitwise
// operator on a value it does not know by divisions and remainders per
// bit: with the old values of the atomics chosen by rf, the check had no
// answer in minutes on the hardware targets. cfront now splits such an
// RMW by the few values its location may hold (rmwcases.go).
#include <assert.h>
#include <stdint.h>
#include <stdatomic.h>
#include <pthread.h>

static _Atomic uint8_t a8 = 0xf0;
static _Atomic uint16_t a16;
static _Atomic uint32_t a32 = 0xffffffffu;
static _Atomic uint64_t a64;
static union {
	uint64_t q;
	uint16_t w[4];
	uint8_t b[8];
} u;
static uint64_t res[2];

static void *worker(void *arg) {
	int id = (int)(intptr_t)arg;
	atomic_fetch_and(&a8, 0x3cu);
	atomic_fetch_or(&a16, 0x8001u);
	atomic_fetch_xor(&a32, 0x0f0f0f0fu);
	atomic_fetch_xor(&a64, 0x8000000000000001ull);
	res[id] = (uint64_t)id * 77u + 1u;
	return 0;
}

int main(void) {
	pthread_t t0, t1;
	pthread_create(&t0, 0, worker, (void *)0);
	pthread_create(&t1, 0, worker, (void *)1);
	u.q = 0xfedcba9876543210ull;
	u.w[1] = (uint16_t)(u.b[7] * u.w[2] % 1000u);
	u.b[0] ^= (uint8_t)(u.w[3] / (u.b[6] | 1));
	pthread_join(t0, 0);
	pthread_join(t1, 0);
	// The values of a native run (x86-64, little-endian).
	assert(a8 == 0x30 && a16 == 0x8000 && a32 == 0xffffffffu && a64 == 0);
	assert(u.q == 18364758542512566839ull);
	assert(res[0] == 1u && res[1] == 78u);
	return 0;
}
