// SV-COMP's twostage shape: a writer sets data1 under one mutex and then
// data2 = data1 + 1 under another; a reader takes data1 under the first
// and data2 under the second and checks data2 == data1 + 1 when it saw
// the writer's data1. With the stages under separate locks the reader can
// come between them: the check fails under every model (the default is
// the buggy two-stage protocol: FFFFFFF). -D FIX: the writer holds the
// first lock over both stages and the reader takes the locks in the same
// order, so the reader sees both stages or neither: PASS.
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
static int data1 = 10, data2 = 10;

static void *writer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m1);
	data1 = 11;
#ifndef FIX
	pthread_mutex_unlock(&m1);
#endif
	pthread_mutex_lock(&m2);
	data2 = data1 + 1;
	pthread_mutex_unlock(&m2);
#ifdef FIX
	pthread_mutex_unlock(&m1);
#endif
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	int t1, t2;
	pthread_mutex_lock(&m1);
	t1 = data1;
#ifndef FIX
	pthread_mutex_unlock(&m1);
#endif
	pthread_mutex_lock(&m2);
	t2 = data2;
	pthread_mutex_unlock(&m2);
#ifdef FIX
	pthread_mutex_unlock(&m1);
#endif
	if (t1 == 11)
		assert(t2 == t1 + 1);
	return NULL;
}

int main(void)
{
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	return 0;
}
