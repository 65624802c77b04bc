// pthread_exit ends the thread where it is called, from a function the
// thread calls too; its value is what pthread_join gives. (It was
// refused.)
#include <pthread.h>
#include <stdint.h>
#include <assert.h>

int x, y;

static void finish(int v)
{
	x = v;
	pthread_exit((void *)(intptr_t)(v + 1));
	y = 1; // never reached
}

void *worker(void *arg)
{
	finish((int)(intptr_t)arg);
	y = 2; // never reached
	return NULL;
}

int main(void)
{
	pthread_t t;
	void *r;
	pthread_create(&t, NULL, worker, (void *)6);
	pthread_join(t, &r);
	assert(x == 6 && y == 0);
	assert((intptr_t)r == 7);
	return 0;
}
