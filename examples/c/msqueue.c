/* Michael-Scott lock-free queue (PODC 1996) with a dummy node; nodes from
   a static pool. One thread enqueues 1 while another dequeues: a
   dequeued value must be the one enqueued. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct node {
	int val;
	_Atomic(struct node *) next;
};

static struct node pool[2]; /* pool[0] is the dummy */
static _Atomic(struct node *) head;
static _Atomic(struct node *) tail;
static int got, got_val;

static void enqueue(struct node *n, int v) {
	n->val = v;
	atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
	for (;;) {
		struct node *t = atomic_load_explicit(&tail, memory_order_acquire);
		struct node *next = atomic_load_explicit(&t->next, memory_order_acquire);
		if (next == NULL) {
			if (atomic_compare_exchange_strong_explicit(&t->next, &next, n, memory_order_release, /* LINK */
			                                            memory_order_relaxed)) {
				atomic_compare_exchange_strong_explicit(&tail, &t, n, memory_order_release,
				                                        memory_order_relaxed);
				return;
			}
		} else {
			atomic_compare_exchange_strong_explicit(&tail, &t, next, memory_order_release,
			                                        memory_order_relaxed);
		}
	}
}

static int dequeue(int *v) {
	for (;;) {
		struct node *h = atomic_load_explicit(&head, memory_order_acquire);
		struct node *t = atomic_load_explicit(&tail, memory_order_acquire);
		struct node *next = atomic_load_explicit(&h->next, memory_order_acquire);
		if (h == t) {
			if (next == NULL)
				return 0;
			atomic_compare_exchange_strong_explicit(&tail, &t, next, memory_order_release,
			                                        memory_order_relaxed);
		} else {
			int val = next->val;
			if (atomic_compare_exchange_strong_explicit(&head, &h, next, memory_order_release,
			                                            memory_order_relaxed)) {
				*v = val;
				return 1;
			}
		}
	}
}

static void *producer(void *arg) {
	(void)arg;
	enqueue(&pool[1], 1);
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	int v = 0;
	got = dequeue(&v);
	if (got)
		assert(v == 1);
	got_val = v;
	return NULL;
}

int main(void) {
	atomic_store_explicit(&head, &pool[0], memory_order_relaxed);
	atomic_store_explicit(&tail, &pool[0], memory_order_relaxed);
	pthread_t t1, t2;
	pthread_create(&t1, NULL, producer, NULL);
	pthread_create(&t2, NULL, consumer, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	struct node *h = atomic_load_explicit(&head, memory_order_relaxed);
	assert(got ? h == &pool[1] && got_val == 1 : h == &pool[0]);
	return 0;
}
