// malloc_unrolled.c with a wrong expectation: the sum is 6, so the
// assertion at line 32 fails (natively too).
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>

static int *make(int n) {
	int *p = malloc((size_t)n * sizeof(int));
	for (int i = 0; i < n; i++)
		p[i] = n * 10 + i;
	return p;
}

static int *shared;

static void *worker(void *arg) {
	shared[1] = 7;
	return 0;
}

int main(void) {
	int *rows[3];
	for (int k = 0; k < 3; k++) {
		rows[k] = calloc((size_t)k + 1, sizeof(int));
		rows[k][k] = k + 1;
	}
	int sum = 0;
	for (int k = 0; k < 3; k++)
		for (int j = 0; j <= k; j++)
			sum += rows[k][j];
	assert(sum == 7);
	shared = make(3);
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, 0);
	assert(shared[0] == 30 && shared[1] == 7 && shared[2] == 32);
	int *a = aligned_alloc(16, (size_t)(sum + 2) * 2);
	a[3] = 5;
	assert(a[3] == 5);
	for (int k = 0; k < 3; k++)
		free(rows[k]);
	free(shared);
	free(a);
	return 0;
}
