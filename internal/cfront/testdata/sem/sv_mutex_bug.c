// pthread-atomic style mutual exclusion that is wrong: thread 2 takes no
// turn and never waits. Under SC thread 1 can pass its wait while flag2
// is 0, thread 2 then writes cs, and thread 1's check of its own write
// sees 1. -O1 forwarded cs = 0 to the check: PASS under SC (and every
// target) where the program fails.
extern void abort(void);
void reach_error() {}
#define assert(e) if (!(e)) ERROR: reach_error()
#include <pthread.h>
int flag1 = 0, flag2 = 0;
int cs;
void *thr1(void *_) {
	flag1 = 1;
	while (flag2 >= 1) {};
	cs = 0;
	assert(cs <= 0);
	flag1 = 0;
	return 0;
}
void *thr2(void *_) {
	flag2 = 1;
	cs = 1;
	flag2 = 0;
	return 0;
}
int main() {
	pthread_t t1, t2;
	pthread_create(&t1, 0, thr1, 0);
	pthread_create(&t2, 0, thr2, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	return 0;
}
