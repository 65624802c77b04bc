// A loop over an array by a pointer, whose comparison the analysis
// places in one object at known offsets (no run-time check): the
// rewritten comparison must reach the engines (it did not at first; the
// graph engine then read "operator < on address" as 0 and said FAIL).
#include <assert.h>
#include <stdint.h>

static int8_t arr[4];

int main(void) {
	for (int8_t *p = &arr[1]; p < &arr[4]; p++) {
		*p = (int8_t)(*p ^ 3);
	}
	assert(arr[0] == 0);
	assert(arr[1] == 3);
	assert(arr[2] == 3);
	assert(arr[3] == 3);
	return 0;
}
