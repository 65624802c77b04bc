// A random C program of TestRandomC (randc_test.go: MUSKET_RANDC_SEED=7424),
// kept as a regression test: pointer loops over arr. Its assertions hold
// natively (the generator computed them by a native run).
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>

__attribute__((weak)) void __VERIFIER_loop_bound(int n) { (void)n; }
union rcu { uint64_t q; uint32_t d[2]; uint16_t w[4]; uint8_t b[8]; int8_t sb[8]; };
struct rcs { int8_t a; int16_t b; uint8_t c[3]; int32_t d; int64_t e; uint16_t f; };
static int16_t g0 = (int16_t)65534ull;
static uint8_t g1 = (uint8_t)73ull;
static uint16_t g2 = (uint16_t)256ull;
static uint32_t g3 = (uint32_t)4294967292ull;
static int8_t g4 = (int8_t)252ull;
static union rcu u;
static struct rcs s;
static uint16_t arr[4];
static __thread uint32_t tl = 7;
static uint64_t own[2];
static _Atomic uint8_t a8; static _Atomic uint16_t a16; static _Atomic uint32_t a32; static _Atomic uint64_t a64;
static void *worker(void *arg) {
	int id = (int)(intptr_t)arg;
	tl = tl * 3u + (uint32_t)id;
	tl = tl * 3u + (uint32_t)id;
	atomic_fetch_sub(&a8, 26674211026ull);
	atomic_fetch_xor(&a16, 4024116831492305ull);
	atomic_fetch_and(&a32, 2608ull);
	atomic_fetch_or(&a64, 3940686071404ull);
	own[id] = tl + (uint64_t)id * 1000u;
	return 0;
}

int main(void) {
	pthread_t t0, t1;
	pthread_create(&t0, 0, worker, (void *)0);
	pthread_create(&t1, 0, worker, (void *)1);
	g0 = (int16_t)(((int16_t)((int8_t)16ull) / (int16_t)(((s.b) & 0x7f) | 1)));
	for (int i2 = 0; i2 < 3; i2++) {
		if (((int64_t)((g3 != (int64_t)18446744073709551613ull)))) {
			for (uint16_t *p0 = &arr[0]; p0 < &arr[4]; p0++) {
				*p0 = (uint16_t)(*p0 ^ (uint16_t)(s.e));
			}
			s.e = (int64_t)(s.a);
		} else {
			s.c[1] = (uint8_t)((((uint64_t)(g4) << (((uint8_t)7ull) & 63)) > ((uint16_t)(s.b) % (uint16_t)((((uint32_t)5ull) & 0x7f) | 1))));
			arr[1] += (uint16_t)((uint64_t)8397147021402425619ull);
		}
		arr[1] = (uint16_t)((~(int16_t)(g0)));
	}
	s.d = (int32_t)(((((uint32_t)(s.f) - (uint32_t)(arr[2])) >= ((int64_t)(s.d))) & (int16_t)7863ull));
	if (s.d) {
		__VERIFIER_loop_bound(5);
		for (int j1 = 0; j1 < (int)((((uint32_t)__builtin_parityll((uint64_t)(s.f)))) & 3); j1++) {
			g4 = (int8_t)(((~(int32_t)((uint64_t)4739635411973455094ull)) <= (uint64_t)18446744073709551613ull));
		}
	} else {
		__VERIFIER_loop_bound(5);
		for (int j1 = 0; j1 < (int)(((~(int8_t)(s.e))) & 3); j1++) {
			for (uint16_t *p0 = &arr[0]; p0 < &arr[4]; p0++) {
				*p0 = (uint16_t)(*p0 ^ (uint16_t)(s.a));
			}
		}
	}
	g0 = (int16_t)(arr[2]);
	arr[3] = (uint16_t)((((int64_t)(&arr[1] - &arr[3])) | ((uint32_t)((uint8_t)131ull) * (uint32_t)((int64_t)1ull))));
	if (((int32_t)(((uint32_t)__builtin_parityll((uint64_t)((uint16_t)65533ull)))) >> ((((uint64_t)(g3) - (uint64_t)((uint32_t)3394189651ull))) & 31))) {
		arr[0] = (uint16_t)((__builtin_bswap16((uint16_t)((uint64_t)12819954339698811980ull))));
		g0 = (int16_t)(((int16_t)7ull & ((int16_t)64103ull | (*(&arr[3] + 0)))));
	} else {
		for (int i1 = 0; i1 < 3; i1++) {
			arr[0] = (uint16_t)((__builtin_bswap16((uint16_t)(s.d))));
		}
	}
	arr[2] = (uint16_t)(((uint32_t)__builtin_popcountll((uint64_t)(g2))));
	g4 = (int8_t)(((uint8_t)253ull != arr[3]));
	g0 = (int16_t)(arr[3]);
	g4 = (int8_t)((int64_t)3188659806252339744ull);
	g2 ^= (uint16_t)((uint64_t)4398046511104ull);
	g0 = (int16_t)(((uint32_t)__builtin_parityll((uint64_t)(g0))));
	__VERIFIER_loop_bound(5);
	for (int j2 = 0; j2 < (int)((((uint32_t)(arr[3]) + (uint32_t)(arr[2]))) & 3); j2++) {
		__VERIFIER_loop_bound(5);
		for (int j1 = 0; j1 < (int)((((int64_t)(&arr[2] - &arr[3]))) & 3); j1++) {
			for (uint16_t *p0 = &arr[2]; p0 < &arr[4]; p0++) {
				*p0 = (uint16_t)(*p0 ^ (uint16_t)(((uint16_t)65532ull != arr[2])));
			}
		}
		s.b = (int16_t)(((uint8_t)(((uint8_t)((int8_t)7ull) + (uint8_t)(arr[3]))) - (uint8_t)(((arr[3]) ? ((s.a) ? arr[1] : arr[1]) : ((uint32_t)((int16_t)24375ull) << (((int64_t)11798103963274531548ull) & 31))))));
	}
	pthread_join(t0, 0);
	pthread_join(t1, 0);
	assert((unsigned long long)(g0) == 0ull);
	assert((unsigned long long)(g1) == 73ull);
	assert((unsigned long long)(g2) == 256ull);
	assert((unsigned long long)(g3) == 4294967292ull);
	assert((unsigned long long)(g4) == 32ull);
	assert((unsigned long long)(u.q) == 0ull);
	assert((unsigned long long)(s.a) == 0ull);
	assert((unsigned long long)(s.b) == 0ull);
	assert((unsigned long long)(s.c[0]) == 0ull);
	assert((unsigned long long)(s.c[1]) == 0ull);
	assert((unsigned long long)(s.c[2]) == 0ull);
	assert((unsigned long long)(s.d) == 1ull);
	assert((unsigned long long)(s.e) == 0ull);
	assert((unsigned long long)(s.f) == 0ull);
	assert((unsigned long long)(arr[0]) == 256ull);
	assert((unsigned long long)(arr[1]) == 65519ull);
	assert((unsigned long long)(arr[2]) == 1ull);
	assert((unsigned long long)(arr[3]) == 65535ull);
	assert((unsigned long long)(tl) == 7ull);
	assert((unsigned long long)(own[0]) == 63ull);
	assert((unsigned long long)(own[1]) == 1067ull);
	assert((unsigned long long)(a8) == 92ull);
	assert((unsigned long long)(a16) == 0ull);
	assert((unsigned long long)(a32) == 0ull);
	assert((unsigned long long)(a64) == 3940686071404ull);
	return 0;
}
