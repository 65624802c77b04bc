// Found by TestRandomC (reduced): clang -O1 turns s.c[1], which only
// ever holds 0 or 59, into a one-bit global, and g0's "g2 >= s.a" into
// sext i1, whose true is -1. Musket extended true to 1: the divisor below
// was 3 instead of 1 and g2 21844 (a wrong FAIL on every engine).
#include <assert.h>
#include <stdint.h>

struct rcs { int8_t a; int16_t b; uint8_t c[3]; int32_t d; int64_t e; uint16_t f; };
static uint64_t g0 = 11324004535281645423ull;
static uint8_t g1 = 179;
static uint32_t g2 = 3;
static uint64_t g3 = 16984156135505902102ull;
static int32_t g4 = 4;
static uint64_t g5 = 1;
static struct rcs s;
static uint64_t arr[4];

int main(void) {
	g3 = (uint64_t)((((uint8_t)(s.c[1]) + (uint8_t)(g5)) | ((uint32_t)(s.c[1]) << ((s.e) & 31))));
	g0 = (uint64_t)(((((int32_t)4294967295ull & s.a)) ? ((uint16_t)(s.e) % (uint16_t)(((arr[1]) & 0x7f) | 1)) : (g2 >= s.a)));
	g2 = (uint32_t)(((int16_t)(((uint64_t)(((g0) ? (int64_t)18446744073709551613ull : (int16_t)128ull)) / (uint64_t)(((((uint32_t)(g3) - (uint32_t)(g0))) & 0x7f) | 1))) / (int16_t)((((s.f ^ (g0 & s.c[1]))) & 0x7f) | 1)));
	for (int i2 = 0; i2 < 3; i2++) {
		for (int i1 = 0; i1 < 2; i1++) {
			s.a = (int8_t)(((uint32_t)(((uint8_t)(g3) - (uint8_t)(arr[0]))) << (((g4 & (uint8_t)252ull)) & 31)));
		}
	}
	arr[1] = (uint64_t)(((uint16_t)((uint64_t)11137967260884907687ull) / (uint16_t)((((((int8_t)(g1) / (int8_t)((((int64_t)4ull) & 0x7f) | 1)) > ((int16_t)((uint32_t)507843358ull) % (int16_t)((((int32_t)4294967293ull) & 0x7f) | 1)))) & 0x7f) | 1)));
	s.c[1] = (uint8_t)(((uint16_t)(((int32_t)(g1) >> ((g1) & 31))) - (uint16_t)(((uint32_t)(g1) * (uint32_t)(arr[1])))));
	assert(g0 == 1);
	assert(g2 == 4294967293u);
	assert(g3 == 1);
	assert(s.a == 16);
	assert(s.c[1] == 59);
	return 0;
}
