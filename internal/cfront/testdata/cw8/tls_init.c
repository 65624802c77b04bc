// Thread-local storage with initial values that are not zero: each
// thread starts with its own copy of every _Thread_local / __thread
// object set to the initializer (C11 6.2.4p4, 6.7.9p10), whatever main or
// another thread did to its own copy; a static __thread array and a
// _Thread_local struct with a pointer to a global. Each worker adds its
// id to its copies and checks them; main checks its copies are
// untouched. BUG: the counter is a plain global, not thread-local (a
// data race; two workers see each other's additions under sc).
#include <pthread.h>
#include <assert.h>

static int shared_target = 100;

#ifdef BUG
static int counter = 5;
#else
static _Thread_local int counter = 5;
#endif
static __thread int hist[3] = {1, 2, 3};
struct ctx {
	int *target;
	int uses;
};
static _Thread_local struct ctx tctx = {&shared_target, 7};

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	counter += id;
	hist[id] += 10;
	tctx.uses++;
	assert(counter == 5 + id);
	assert(hist[0] + hist[1] + hist[2] == 16);
	assert(tctx.uses == 8 && *tctx.target == 100);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	counter = 50;
	hist[0] = 0;
	pthread_create(&a, NULL, worker, (void *)1L);
	pthread_create(&b, NULL, worker, (void *)2L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
#ifndef BUG
	assert(counter == 50 && hist[0] == 0 && tctx.uses == 7);
#endif
	return 0;
}
