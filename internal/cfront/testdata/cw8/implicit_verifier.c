// An old test program that calls the verifier's functions without
// declaring them (implicit declarations, which gnu11 still accepts with
// a warning): __VERIFIER_nondet_int, __VERIFIER_assume and
// __VERIFIER_error reached through an ERROR label. Musket refused them
// ("declared implicitly: no prototype before the call") though it knows
// them; they are now lowered as if declared. A thread publishes a
// nondeterministic positive value under a mutex; main checks it after
// the join (PASS). BUG: main checks x != 3, which the value may be
// (FAIL).
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int x;

static void *setter(void *arg)
{
	int v = __VERIFIER_nondet_int();
	__VERIFIER_assume(v > 0 && v < 5);
	pthread_mutex_lock(&m);
	x = v;
	pthread_mutex_unlock(&m);
	return arg;
}

int main()
{
	pthread_t t;
	pthread_create(&t, 0, setter, 0);
	pthread_join(t, 0);
#ifdef BUG
	if (x == 3) {
#else
	if (x <= 0 || x >= 5) {
#endif
	ERROR:
		__VERIFIER_error();
	}
	return 0;
}
