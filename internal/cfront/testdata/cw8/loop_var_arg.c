// The classic mistake of passing the loop variable's address to each
// thread: pthread_create(&t[i], NULL, f, &i) in a loop. The threads read
// i while main increments it: a data race (C11 models), and under every
// other model two threads may read the same index, so a slot stays 0
// (BUG, the default). -D FIX: each thread gets the address of its own
// element of an ids array (the SV-COMP idiom): every slot is written
// once (PASS).
#include <pthread.h>
#include <assert.h>

#define N 2

static int seen[N];

static void *f(void *arg)
{
	int i = *(int *)arg;
	if (i >= 0 && i < N)
		seen[i] = 1;
	return NULL;
}

int main(void)
{
	pthread_t t[N];
#ifdef FIX
	int ids[N];
	for (int i = 0; i < N; i++) {
		ids[i] = i;
		pthread_create(&t[i], NULL, f, &ids[i]);
	}
#else
	int i;
	for (i = 0; i < N; i++)
		pthread_create(&t[i], NULL, f, &i);
#endif
	for (int k = 0; k < N; k++)
		pthread_join(t[k], NULL);
	for (int k = 0; k < N; k++)
		assert(seen[k] == 1);
	return 0;
}
