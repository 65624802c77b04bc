// SV-COMP's lazy01 shape: three threads add 1, 2 and 4 to data under a
// mutex; a fourth thread checks, under the mutex, a bound that holds in
// every interleaving (data is a sum of a subset of {1, 2, 4}: 0..7);
// main checks the total after the joins. BUG: the
// checker claims data < 7 (FAIL: after all three adds data is 7, and the
// checker may run last).
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static int data;

static void *adder(void *arg)
{
	int v = (int)(long)arg;
	pthread_mutex_lock(&mutex);
	data += v;
	pthread_mutex_unlock(&mutex);
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mutex);
#ifdef BUG
	assert(data < 7);
#else
	assert(data <= 7 && data >= 0);
#endif
	pthread_mutex_unlock(&mutex);
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	pthread_create(&t[0], NULL, adder, (void *)1L);
	pthread_create(&t[1], NULL, adder, (void *)2L);
	pthread_create(&t[2], NULL, adder, (void *)4L);
	pthread_create(&t[3], NULL, checker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	assert(data == 7);
	return 0;
}
