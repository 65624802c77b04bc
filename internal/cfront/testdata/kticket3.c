// A kernel-style ticket lock (arm64's arch_spin_lock: an acquire
// fetch_add of the next ticket, an acquire spin on the owner, a release
// store of owner + 1) guarding a plain counter, 3 threads x 2 rounds.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
struct ticket { atomic_uint next; atomic_uint owner; };
static struct ticket lk;
static int counter;
static void spin_lock(struct ticket *l) {
	unsigned me = atomic_fetch_add_explicit(&l->next, 1, memory_order_acquire);
	while (atomic_load_explicit(&l->owner, memory_order_acquire) != me)
		;
}
static void spin_unlock(struct ticket *l) {
	unsigned o = atomic_load_explicit(&l->owner, memory_order_relaxed);
	atomic_store_explicit(&l->owner, o + 1, memory_order_release);
}
static void *worker(void *arg) {
	(void)arg;
	for (int i = 0; i < 2; i++) {
		spin_lock(&lk);
		counter++;
		spin_unlock(&lk);
	}
	return NULL;
}
int main(void) {
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(counter == 6);
	return 0;
}
