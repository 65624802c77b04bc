// Found by TestRandomC (reduced to its point): a true i1 sign-extended is
// -1. clang -O1 writes "-(a < b)" as sext i1 (the random program had a
// global that clang shrank to one bit, then sign-extended a comparison of
// it); Musket extended true to 1, a wrong FAIL on every engine. The
// values come from globals, and go through volatile ones, so that clang
// folds neither the comparisons nor the assertions.
#include <assert.h>
#include <stdint.h>

int a = 1, b = 2;
int8_t s8 = -3;
volatile int m;
volatile int64_t w;
volatile int16_t h;

int main(void) {
	m = -(a < b);
	w = -(int64_t)(b < a);
	h = -(int16_t)(s8 < 0);
	assert(m == -1);
	assert(w == 0);
	assert(h == -1);
	assert((uint32_t)m == 4294967295u);
	return 0;
}
