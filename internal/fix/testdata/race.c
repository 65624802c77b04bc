/* A real data race: two threads write the plain variable x with nothing
   between them. No fence or memory order repairs it (x itself is not
   atomic): musket fix -races says so. */
#include <pthread.h>

int x;

static void *writer(void *arg) {
	(void)arg;
	x = 1;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	x = 2;
	pthread_join(t, NULL);
	return 0;
}
