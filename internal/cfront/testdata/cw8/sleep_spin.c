// User code that waits politely: a flag polled with usleep (default),
// sched_yield (-D YIELD) or nanosleep (-D NANO, its timespec filled in
// the loop) between reads, and a worker that sleeps before publishing.
// Sleeping orders nothing: it is a delay, so the verdicts are those of
// the same program without it (Musket said BOUND at any bound with
// usleep or nanosleep: the loop was not taken for a spin loop).
// Correct: release/acquire on ready. BUG: relaxed (weak targets and the
// C11 models may see data == 0).
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <assert.h>

#ifdef BUG
#define REL memory_order_relaxed
#define ACQ memory_order_relaxed
#else
#define REL memory_order_release
#define ACQ memory_order_acquire
#endif

static atomic_int ready;
static atomic_int data;

static void pause_a_little(void)
{
#if defined(YIELD)
	sched_yield();
#elif defined(NANO)
	struct timespec ts = {0, 1000};
	nanosleep(&ts, NULL);
#else
	usleep(10);
#endif
}

static void *producer(void *arg)
{
	(void)arg;
	pause_a_little();
	atomic_store_explicit(&data, 42, memory_order_relaxed);
	atomic_store_explicit(&ready, 1, REL);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, producer, NULL);
	while (!atomic_load_explicit(&ready, ACQ))
		pause_a_little();
	assert(atomic_load_explicit(&data, memory_order_relaxed) == 42);
	pthread_join(t, NULL);
	return 0;
}
