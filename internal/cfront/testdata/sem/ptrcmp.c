// Ordering comparisons and differences of pointers into one object: a
// loop over an array by a pointer, pointers published through memory by
// another thread, and a difference turned back into an index.
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int arr[6];
int *pub[2];
struct pair { int a; short b[3]; long c; } s;

void *worker(void *arg) {
	(void)arg;
	pub[0] = &arr[1];
	pub[1] = &arr[4];
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, 0);
	int *p = pub[0], *q = pub[1];
	assert(p < q);
	assert(p <= q);
	assert(q > p);
	assert(!(q < p));
	assert(p >= p);
	assert(q - p == 3);
	assert(p - q == -3);
	int n = 0;
	for (int *r = arr; r < arr + 6; r++) {
		*r = n++;
	}
	assert(n == 6);
	int *mid = &arr[3];
	int below = 0;
	for (int *r = &arr[5]; r >= arr; r--) {
		if (r < mid) {
			below += *r;
		}
	}
	assert(below == 0 + 1 + 2);
	char *b = (char *)&s.b[2], *a = (char *)&s.a;
	assert(b - a == (ptrdiff_t)offsetof(struct pair, b) + 4);
	assert((void *)&s.c > (void *)&s.b[1]);
	return 0;
}
