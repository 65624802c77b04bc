// A nondeterministic number of threads (SV-COMP style): n comes from
// __VERIFIER_nondet_int, limited by __VERIFIER_assume to 1..3, and both
// the create and the join loop run n times (so -bound 3 covers every n;
// -bound 2 reaches the bound). Each worker adds its index + 1 to sum under
// a mutex: sum == n(n+1)/2 after the joins. BUG: the add is outside the
// lock (a data race; with two or more threads a lost update under sc).
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int sum;

static void *worker(void *arg)
{
	long id = (long)arg;
#ifndef BUG
	pthread_mutex_lock(&m);
#endif
	sum += (int)id + 1;
#ifndef BUG
	pthread_mutex_unlock(&m);
#endif
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	int n = __VERIFIER_nondet_int();
	__VERIFIER_assume(n >= 1 && n <= 3);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	assert(sum == n * (n + 1) / 2);
	return 0;
}
