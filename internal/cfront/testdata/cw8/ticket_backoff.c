// pthread-ext's ticket lock with proportional backoff: a waiter that is
// d tickets away spins in a delay loop of d * K empty rounds (a volatile
// counter, so the compiler keeps it) before reading now_serving again.
// The delay loop writes its counter: it is no spin loop, so its rounds
// count against -bound (K = 1 and two threads: d is at most 1, one
// round; -bound 2 is enough). Correct: acquire/release; two threads
// increment a plain counter in the critical section. BUG: the lock's
// release is relaxed (the critical sections' plain accesses race).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define K 1

#ifdef BUG
#define REL memory_order_relaxed
#else
#define REL memory_order_release
#endif

static atomic_uint next_ticket, now_serving;
static int shared;

static void lock(void)
{
	unsigned my = atomic_fetch_add_explicit(&next_ticket, 1, memory_order_relaxed);
	for (;;) {
		unsigned ns = atomic_load_explicit(&now_serving, memory_order_acquire);
		if (ns == my)
			return;
		volatile unsigned delay = 0;
		for (unsigned d = 0; d < (my - ns) * K; d++)
			delay++;
	}
}

static void unlock(void)
{
	unsigned ns = atomic_load_explicit(&now_serving, memory_order_relaxed);
	atomic_store_explicit(&now_serving, ns + 1, REL);
}

static void *worker(void *arg)
{
	(void)arg;
	lock();
	shared++;
	unlock();
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(shared == 2);
	return 0;
}
