// As sv_atomic.c, but the second thread's increment of cnt2 is outside
// any section: an update can be lost.
#include <pthread.h>
extern void abort(void);
void reach_error() {}
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int cnt, cnt2;

void __VERIFIER_atomic_inc(void)
{
	cnt = cnt + 1;
}

void *thr1(void *arg)
{
	__VERIFIER_atomic_inc();
	__VERIFIER_atomic_begin();
	cnt2 = cnt2 + 1;
	__VERIFIER_atomic_end();
	return 0;
}

void *thr2(void *arg)
{
	__VERIFIER_atomic_inc();
	cnt2 = cnt2 + 1;
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, 0, thr1, 0);
	pthread_create(&t2, 0, thr2, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	if (!(cnt == 2 && cnt2 == 2)) {
		ERROR: { reach_error(); abort(); }
	}
	return 0;
}
