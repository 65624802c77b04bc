/* MCS queue lock (Mellor-Crummey, Scott): each thread spins on its own
   node, taken from a static pool; the lock holder hands the lock to its
   successor. Two threads increment a plain counter under the lock.

   BUG: the hand-off to the successor is a relaxed store instead of a
   release: the successor may read a stale counter. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define NTHREADS 2

struct mcs_node {
	_Atomic(struct mcs_node *) next;
	atomic_int locked;
};

static struct mcs_node nodes[NTHREADS];
static _Atomic(struct mcs_node *) tail;
static int counter;

static void mcs_lock(struct mcs_node *me) {
	atomic_store_explicit(&me->next, NULL, memory_order_relaxed);
	atomic_store_explicit(&me->locked, 1, memory_order_relaxed);
	struct mcs_node *prev = atomic_exchange_explicit(&tail, me, memory_order_acq_rel);
	if (prev != NULL) {
		atomic_store_explicit(&prev->next, me, memory_order_release);
		while (atomic_load_explicit(&me->locked, memory_order_acquire))
			;
	}
}

static void mcs_unlock(struct mcs_node *me) {
	struct mcs_node *succ = atomic_load_explicit(&me->next, memory_order_acquire);
	if (succ == NULL) {
		struct mcs_node *expected = me;
		if (atomic_compare_exchange_strong_explicit(&tail, &expected, NULL, memory_order_release,
		                                            memory_order_relaxed))
			return;
		while ((succ = atomic_load_explicit(&me->next, memory_order_acquire)) == NULL)
			;
	}
	atomic_store_explicit(&succ->locked, 0, memory_order_relaxed); /* BUG: was memory_order_release */
}

static void *worker(void *arg) {
	struct mcs_node *me = &nodes[(intptr_t)arg];
	mcs_lock(me);
	counter = counter + 1;
	mcs_unlock(me);
	return NULL;
}

int main(void) {
	pthread_t t[NTHREADS];
	for (intptr_t i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == NTHREADS);
	assert(atomic_load_explicit(&tail, memory_order_relaxed) == NULL);
	return 0;
}
