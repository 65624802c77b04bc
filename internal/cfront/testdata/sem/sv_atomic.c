// SV-COMP's atomic sections: a function named __VERIFIER_atomic_... is one
// section, and so is the code between __VERIFIER_atomic_begin() and
// __VERIFIER_atomic_end(). Two threads increment two counters inside
// sections; no update is lost. (-O1 used to inline the function and its
// section was lost; begin/end were refused.)
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

void *thr(void *arg)
{
	__VERIFIER_atomic_inc();
	__VERIFIER_atomic_begin();
	cnt2 = cnt2 + 1;
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
	if (!(cnt == 2 && cnt2 == 2)) {
		ERROR: { reach_error(); abort(); }
	}
	return 0;
}
