// SV-COMP's bounded_buffer shape: a circular buffer of SIZE slots under
// a mutex with two condition variables (not full / not empty), a
// producer putting NITEMS values and a consumer taking them, in order.
// Values are 7i + 1, or with -D NONDET come from __VERIFIER_nondet_int (so
// the SMT engine decides: tens of seconds); the
// consumer checks each value against what the producer recorded in a
// second array (written under the same mutex). Waits are in while loops.
// Correct: PASS. BUG: the consumer tests "empty" with if instead of while
// (a wake-up without a put, which POSIX allows, lets it take an empty
// slot: FAIL under every model).
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

#define SIZE 2
#define NITEMS 3

static int buf[SIZE], sent[NITEMS];
static int head, tail, count;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITEMS; i++) {
#ifdef NONDET
		int v = __VERIFIER_nondet_int();
#else
		int v = 7 * i + 1;
#endif
		pthread_mutex_lock(&m);
		while (count == SIZE)
			pthread_cond_wait(&not_full, &m);
		buf[tail] = v;
		sent[i] = v;
		tail = (tail + 1) % SIZE;
		count++;
		pthread_cond_signal(&not_empty);
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITEMS; i++) {
		pthread_mutex_lock(&m);
#ifdef BUG
		if (count == 0)
#else
		while (count == 0)
#endif
			pthread_cond_wait(&not_empty, &m);
		int v = buf[head];
		assert(count > 0 && v == sent[i]);
		head = (head + 1) % SIZE;
		count--;
		pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	assert(count == 0);
	return 0;
}
