// Old-style C as found in older benchmark programs: a K&R function
// definition, declarations without prototypes (int f();) for the
// __VERIFIER_ functions and the thread function, extern declarations of
// a global defined later in the file, and a thread function defined
// after main. gnu11 accepts all of it. Correct: the global is set under a
// mutex by the thread; main reads it after the join (PASS). BUG: main
// reads it before the join (a data race; under sc it may see 0).
#include <pthread.h>

extern void reach_error();
extern int __VERIFIER_nondet_int();
extern int shared;
void *worker();

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int add(a, b)
int a;
int b;
{
	return a + b;
}

void check(cond)
int cond;
{
	if (!cond) {
	ERROR:
		reach_error();
	}
}

int main()
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
#ifdef BUG
	check(shared == 5);
	pthread_join(t, 0);
#else
	pthread_join(t, 0);
	pthread_mutex_lock(&m);
	check(shared == 5);
	pthread_mutex_unlock(&m);
#endif
	return 0;
}

int shared;

void *worker(arg)
void *arg;
{
	pthread_mutex_lock(&m);
	shared = add(2, 3);
	pthread_mutex_unlock(&m);
	return arg;
}
