// Nested atomic sections: a __VERIFIER_atomic_ function called between
// __VERIFIER_atomic_begin and __VERIFIER_atomic_end, and a begin inside a
// section. Only the outermost section locks (a second lock would make
// the thread wait on itself and hide every execution: a PASS for the
// failing check below).
#include <pthread.h>
extern void abort(void);
void reach_error() {}
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int cnt;

void __VERIFIER_atomic_inc(void)
{
	cnt = cnt + 1;
}

void *thr(void *arg)
{
	__VERIFIER_atomic_begin();
	__VERIFIER_atomic_inc();
	__VERIFIER_atomic_begin();
	cnt = cnt + 1;
	__VERIFIER_atomic_end();
	__VERIFIER_atomic_end();
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, 0, thr, 0);
	pthread_create(&t2, 0, thr, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	if (cnt != 3) { // it is 4
		ERROR: { reach_error(); abort(); }
	}
	return 0;
}
