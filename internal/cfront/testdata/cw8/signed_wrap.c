// Signed overflow in a shared counter. Two threads add 1 under a mutex
// to a counter that starts at INT_MAX - 1: the second addition overflows,
// which C leaves undefined (C11 6.5p5). The default program checks its
// counter with unsigned arithmetic (defined: wraps modulo 2^32), so its
// assertions hold. -D SIGNED: the same check in int arithmetic, whose
// overflow is undefined; natively at -O0 it wraps to INT_MIN and the
// assertion fails. -D GUARD: the program tests before adding
// (x < INT_MAX), the correct idiom: no overflow, PASS.
#include <pthread.h>
#include <limits.h>
#include <assert.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter = INT_MAX - 1;
static unsigned ucounter = UINT_MAX - 1;
static int saturated;

static void *bump(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
#if defined(SIGNED)
	counter = counter + 1;
#elif defined(GUARD)
	if (counter < INT_MAX)
		counter++;
	else
		saturated++;
#endif
	ucounter = ucounter + 1;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, bump, NULL);
	pthread_create(&b, NULL, bump, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(ucounter == 0);
#if defined(SIGNED)
	assert(counter > 0);
#elif defined(GUARD)
	assert(counter == INT_MAX && saturated == 1);
#endif
	return 0;
}
