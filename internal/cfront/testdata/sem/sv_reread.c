// A thread reads x twice and another writes it: under SC and on every
// target the two reads may differ. -O1 merged the two loads into one (as
// it may when the program has no data race): PASS where the model says
// FAIL. With races checked (rc11) the race is the verdict.
extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int e) { if (!e) { reach_error(); abort(); } }
#include <pthread.h>
int x;
void *t1(void *arg) {
	int a = x;
	int b = x;
	__VERIFIER_assert(a == b);
	return 0;
}
void *t2(void *arg) {
	x = 1;
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
