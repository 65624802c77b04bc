// GenMC-style variant: the readers first, joined in reverse order.
#include <stdlib.h>
#include <pthread.h>

#include "../corr.c"

int main()
{
	pthread_t t[4];
	void *(*fn[4])(void *) = {thread_4, thread_3, thread_2, thread_1};

	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, fn[i], NULL))
			abort();
	for (int i = 3; i >= 0; i--)
		if (pthread_join(t[i], NULL))
			abort();

	check();
	return 0;
}
