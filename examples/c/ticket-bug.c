/* Ticket lock: a thread takes a ticket and spins until it is served; two
   threads increment a plain counter under the lock.

   BUG: the wait for the turn is a relaxed load instead of an acquire:
   the critical section may read the counter before the previous owner
   wrote it. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define NTHREADS 2

static atomic_uint next_ticket;
static atomic_uint now_serving;
static int counter;

static void ticket_lock(void) {
	unsigned my = atomic_fetch_add_explicit(&next_ticket, 1, memory_order_relaxed);
	while (atomic_load_explicit(&now_serving, memory_order_relaxed) != my) /* BUG: was memory_order_acquire */
		;
}

static void ticket_unlock(void) {
	unsigned s = atomic_load_explicit(&now_serving, memory_order_relaxed);
	atomic_store_explicit(&now_serving, s + 1, memory_order_release);
}

static void *worker(void *arg) {
	(void)arg;
	ticket_lock();
	counter = counter + 1;
	ticket_unlock();
	return NULL;
}

int main(void) {
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == NTHREADS);
	assert(atomic_load_explicit(&now_serving, memory_order_relaxed) == NTHREADS);
	return 0;
}
