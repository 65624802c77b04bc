// A random C program of TestRandomC (randc_test.go: MUSKET_RANDC_SEED=7414),
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
static int16_t g0 = (int16_t)45205ull;
static uint32_t g1 = (uint32_t)2930779638ull;
static int8_t g2 = (int8_t)252ull;
static int32_t g3 = (int32_t)4ull;
static int32_t g4 = (int32_t)2145574806ull;
static union rcu u;
static struct rcs s;
static int8_t arr[4];

int main(void) {
	g4 = (int32_t)((((uint16_t)(((uint8_t)((int8_t)5ull) % (uint8_t)(((g3) & 0x7f) | 1))) + (uint16_t)(((uint32_t)(s.e) << (((int64_t)2070351307875028159ull) & 31)))) ^ s.b));
	arr[2] = (int8_t)((~(uint32_t)(((uint32_t)(g1) << ((s.f) & 31)))));
	g4 = (int32_t)(((((int8_t)((uint32_t)4294967295ull))) ? (((int8_t)4ull) ? (int8_t)255ull : (uint16_t)65535ull) : ((uint32_t)(s.f) << ((s.e) & 31))));
	s.a = (int8_t)(((g1 | arr[3]) ^ ((uint64_t)(s.d) << ((g2) & 63))));
	if ((*(&arr[3] + 0))) {
		for (int i1 = 0; i1 < 1; i1++) {
			arr[3] = (int8_t)(((uint8_t)(s.c[1]) + (uint8_t)((~(int16_t)((~(uint32_t)(g0)))))));
			g2 = (int8_t)((((int8_t)(((int32_t)16777216ull >= arr[1]))) >= (__builtin_bswap32((uint32_t)(((int16_t)(g3)))))));
		}
		g3 = (int32_t)((((uint64_t)((uint32_t)2048ull) - (uint64_t)(arr[3])) & g2));
	} else {
		s.b = (int16_t)(((int16_t)(s.f) / (int16_t)(((((uint32_t)__builtin_clzll((uint64_t)((arr[0] ^ g4)) | 1ull))) & 0x7f) | 1)));
		g0 = (int16_t)((g0 ^ (((int16_t)4ull) ? s.f : g4)));
	}
	s.d = (int32_t)(s.d);
	arr[0] = (int8_t)(((uint64_t)(((uint32_t)__builtin_clzll((uint64_t)(arr[2]) | 1ull))) << ((((uint8_t)((int16_t)128ull) - (uint8_t)((int64_t)3372521981044406061ull))) & 63)));
	s.f = (uint16_t)(((uint16_t)(s.a) - (uint16_t)(((uint32_t)__builtin_ctzll((uint64_t)(s.c[1]) | 0x8000000000000000ull)))));
	g4 = (int32_t)((((int64_t)(&arr[4] - &arr[3])) & ((g3) ? g3 : (int16_t)65534ull)));
	for (int i2 = 0; i2 < 3; i2++) {
		__VERIFIER_loop_bound(5);
		for (int j1 = 0; j1 < (int)((g4) & 3); j1++) {
			for (int8_t *p0 = &arr[0]; p0 < &arr[4]; p0++) {
				*p0 = (int8_t)(*p0 ^ (int8_t)(((arr[2]) ? s.b : s.b)));
			}
		}
	}
	arr[0] = (int8_t)(((__builtin_bswap32((uint32_t)((*(&arr[1] + 2))))) & ((g3 & arr[2]) ^ ((uint64_t)(arr[2]) + (uint64_t)(g2)))));
	g2 = (int8_t)((int64_t)18446744073709551613ull);
	if (((int8_t)((~(uint32_t)((int64_t)9007199254740992ull))) / (int8_t)((((s.e & s.f)) & 0x7f) | 1))) {
		g2 = (int8_t)(((*(&arr[2] + 1)) | ((uint32_t)__builtin_parityll((uint64_t)((arr[1] ^ (uint64_t)17488358501270661668ull))))));
		for (int8_t *p1 = &arr[1]; p1 < &arr[4]; p1++) {
			*p1 = (int8_t)(*p1 ^ (int8_t)(((uint64_t)(arr[0]) << (((uint32_t)0ull) & 63))));
		}
	} else {
		s.a = (int8_t)(g0);
	}
	assert((unsigned long long)(g0) == 18446744073709531285ull);
	assert((unsigned long long)(g1) == 2930779638ull);
	assert((unsigned long long)(g2) == 1ull);
	assert((unsigned long long)(g3) == 4ull);
	assert((unsigned long long)(g4) == 0ull);
	assert((unsigned long long)(u.q) == 0ull);
	assert((unsigned long long)(s.a) == 18446744073709551606ull);
	assert((unsigned long long)(s.b) == 0ull);
	assert((unsigned long long)(s.c[0]) == 0ull);
	assert((unsigned long long)(s.c[1]) == 0ull);
	assert((unsigned long long)(s.c[2]) == 0ull);
	assert((unsigned long long)(s.d) == 0ull);
	assert((unsigned long long)(s.e) == 0ull);
	assert((unsigned long long)(s.f) == 65463ull);
	assert((unsigned long long)(arr[0]) == 0ull);
	assert((unsigned long long)(arr[1]) == 0ull);
	assert((unsigned long long)(arr[2]) == 9ull);
	assert((unsigned long long)(arr[3]) == 0ull);
	return 0;
}
