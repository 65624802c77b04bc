// Return values of pthread_create and pthread_join, as careful programs
// check them: create returns 0, join returns 0 and stores the thread's
// return value (a pointer to a malloc'ed result the joiner frees).
// -D SELF: main joins itself; glibc detects it and returns EDEADLK
// (POSIX: "may fail" with EDEADLK), and the program asserts the error.
// -D SELF -D BUG: the program asserts the self-join succeeded (glibc
// fails every run).
#include <pthread.h>
#include <stdlib.h>
#include <errno.h>
#include <assert.h>

struct result {
	int sum;
	int id;
};

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	struct result *r = malloc(sizeof *r);
	if (!r)
		return NULL;
	r->sum = 10 * id;
	r->id = id;
	return r;
}

int main(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++) {
		int rc = pthread_create(&t[i], NULL, worker, (void *)(i + 1));
		assert(rc == 0);
	}
	int total = 0;
	for (int i = 0; i < 2; i++) {
		void *ret = NULL;
		int rc = pthread_join(t[i], &ret);
		assert(rc == 0);
		struct result *r = ret;
		if (r) {
			assert(r->id == i + 1);
			total += r->sum;
			free(r);
		}
	}
	assert(total == 30 || total == 10 || total == 20 || total == 0);
#ifdef SELF
	int rc = pthread_join(pthread_self(), NULL);
#ifdef BUG
	assert(rc == 0);
#else
	assert(rc == EDEADLK);
#endif
#endif
	return 0;
}
