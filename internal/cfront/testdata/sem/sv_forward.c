// SV-COMP's reading of a racy program (pthread-atomic, pthread-wmm): each
// plain access as written. Thread 1 writes x and reads it back; thread 2
// may write x in between, so the read can see 2 under SC and on every
// target. -O1 forwarded the store to the load (allowed only when the
// program has no data race): PASS where the model says FAIL. With races
// checked (rc11) the race is the verdict.
extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int e) { if (!e) { reach_error(); abort(); } }
#include <pthread.h>
int x;
void *t1(void *arg) {
	x = 1;
	int a = x;
	__VERIFIER_assert(a == 1);
	return 0;
}
void *t2(void *arg) {
	x = 2;
	return 0;
}
int main() {
	pthread_t a, b;
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
