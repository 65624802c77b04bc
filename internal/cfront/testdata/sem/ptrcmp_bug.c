// A difference of pointers into one array that is not what the
// assertion says (the pointers are 3 elements apart): FAIL at the
// assertion, as the native run aborts there.
#include <assert.h>
#include <pthread.h>

int arr[6];
int *pub[2];

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
	assert(q - p == 2);
	return 0;
}
