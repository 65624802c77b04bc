/* CLH queue lock (Craig; Landin, Hagersten): a thread enqueues its node
   by swapping the tail and spins on its predecessor's node. Nodes come
   from a static pool; the last one is the initial, unlocked, tail. Two
   threads increment a plain counter under the lock.

   BUG: the spin on the predecessor is a relaxed load instead of an
   acquire: the critical section may read the counter before the
   predecessor wrote it. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define NTHREADS 2

struct clh_node {
	atomic_int locked;
};

static struct clh_node nodes[NTHREADS + 1];
static _Atomic(struct clh_node *) tail = &nodes[NTHREADS];
static int counter;

static void clh_lock(struct clh_node *me) {
	atomic_store_explicit(&me->locked, 1, memory_order_relaxed);
	struct clh_node *pred = atomic_exchange_explicit(&tail, me, memory_order_acq_rel);
	while (atomic_load_explicit(&pred->locked, memory_order_relaxed)) /* BUG: was memory_order_acquire */
		;
}

static void clh_unlock(struct clh_node *me) {
	atomic_store_explicit(&me->locked, 0, memory_order_release);
}

static void *worker(void *arg) {
	struct clh_node *me = &nodes[(intptr_t)arg];
	clh_lock(me);
	counter = counter + 1;
	clh_unlock(me);
	return NULL;
}

int main(void) {
	pthread_t t[NTHREADS];
	for (intptr_t i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == NTHREADS);
	return 0;
}
