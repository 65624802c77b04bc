// Read-write lock with try operations: two readers take the lock with
// pthread_rwlock_tryrdlock (falling back to rdlock when it is busy), a
// writer with pthread_rwlock_trywrlock falling back to wrlock. The writer
// updates a pair (a, b) keeping a + b == 10; readers check the invariant
// (PASS). The return values are checked: a try that succeeds returns 0,
// one that fails EBUSY. BUG: the writer, when its trywrlock fails, goes
// on without the lock (a race with the readers; under sc a reader sees
// a half-updated pair).
#include <pthread.h>
#include <errno.h>
#include <assert.h>

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int a = 4, b = 6;

static void *reader(void *arg)
{
	(void)arg;
	int rc = pthread_rwlock_tryrdlock(&rw);
	assert(rc == 0 || rc == EBUSY);
	if (rc == EBUSY)
		pthread_rwlock_rdlock(&rw);
	assert(a + b == 10);
	pthread_rwlock_unlock(&rw);
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	int rc = pthread_rwlock_trywrlock(&rw);
	assert(rc == 0 || rc == EBUSY);
#ifndef BUG
	if (rc == EBUSY) {
		pthread_rwlock_wrlock(&rw);
		rc = 0;
	}
#endif
	a = a + 3;
	b = b - 3;
	if (rc == 0)
		pthread_rwlock_unlock(&rw);
	return NULL;
}

int main(void)
{
	pthread_t r1, r2, w;
	pthread_create(&r1, NULL, reader, NULL);
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r2, NULL, reader, NULL);
	pthread_join(r1, NULL);
	pthread_join(w, NULL);
	pthread_join(r2, NULL);
	assert(a == 7 && b == 3);
	return 0;
}
