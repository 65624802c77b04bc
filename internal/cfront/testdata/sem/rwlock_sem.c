// A read-write lock guards a pair that a writer keeps equal; two readers
// check it. A semaphore counts the readers' completions for main, and a
// second one (initially 0) hands a token from the writer to main.
// -DBUG: one reader reads without the lock; -DBUGSEM: main waits for one
// completion only.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t finished, token;
static int a, b, seen;

static void *writer(void *arg) {
	pthread_rwlock_wrlock(&rw);
	a = 1;
	b = 1;
	pthread_rwlock_unlock(&rw);
	sem_post(&token);
	return 0;
}

static void *reader(void *arg) {
#ifdef BUG
	if (arg) {
		assert(a == b);
		sem_post(&finished);
		return 0;
	}
#endif
	pthread_rwlock_rdlock(&rw);
	assert(a == b);
	pthread_rwlock_unlock(&rw);
	__atomic_fetch_add(&seen, 1, __ATOMIC_RELAXED);
	sem_post(&finished);
	return 0;
}

int main(void) {
	pthread_t w, r1, r2;
	sem_init(&finished, 0, 0);
	sem_init(&token, 0, 0);
	pthread_create(&r1, 0, reader, (void *)0);
	pthread_create(&r2, 0, reader, (void *)1);
	pthread_create(&w, 0, writer, 0);
	sem_wait(&finished);
#ifndef BUGSEM
	sem_wait(&finished);
#endif
	sem_wait(&token);
	assert(sem_trywait(&token) == -1);
	if (pthread_rwlock_trywrlock(&rw) == 0) {
		assert(a == 1);
		pthread_rwlock_unlock(&rw);
	}
#ifndef BUG
	assert(seen == 2);
#endif
	return 0;
}
