// An ordering comparison of pointers into two different objects is
// undefined in C: Musket fails the program at the comparison (as it does
// on an invalid memory access) instead of choosing a layout.
#include <assert.h>

int a[2], b[2];
int *volatile sel;

int main(void) {
	sel = &a[0];
	sel = &b[0];
	int *p = sel;
	if (p < &a[1]) {
		return 1;
	}
	return 0;
}
