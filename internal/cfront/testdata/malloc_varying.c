// A malloc whose size differs on the paths that reach it (a value read
// from memory another thread may write): refused by name.
#include <stdlib.h>
#include <pthread.h>

int n = 1;
int *keep;

static void *worker(void *arg) {
	n = 2;
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	int *p = malloc((size_t)n * sizeof(int));
	p[0] = 1;
	pthread_join(t, 0);
	keep = p;
	return 0;
}
