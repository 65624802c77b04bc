/* Treiber's lock-free stack, nodes from a static pool (never reused, so
   no ABA). One thread pushes a node holding 1 while another pops: a
   popped node must hold the value its pusher wrote. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct node {
	int val;
	struct node *next;
};

static struct node pool[1];
static _Atomic(struct node *) top;
static struct node *popped;

static void push(struct node *n) {
	struct node *old = atomic_load_explicit(&top, memory_order_relaxed);
	do {
		n->next = old;
	} while (!atomic_compare_exchange_strong_explicit(&top, &old, n, memory_order_release, /* PUSH */
	                                                  memory_order_relaxed));
}

static struct node *pop(void) {
	struct node *old = atomic_load_explicit(&top, memory_order_acquire);
	while (old != NULL &&
	       !atomic_compare_exchange_strong_explicit(&top, &old, old->next, memory_order_acquire,
	                                                memory_order_acquire))
		;
	return old;
}

static void *pusher(void *arg) {
	(void)arg;
	pool[0].val = 1;
	push(&pool[0]);
	return NULL;
}

static void *popper(void *arg) {
	(void)arg;
	struct node *n = pop();
	if (n != NULL)
		assert(n->val == 1);
	popped = n;
	return NULL;
}

int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, NULL, pusher, NULL);
	pthread_create(&t2, NULL, popper, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	struct node *rest = atomic_load_explicit(&top, memory_order_relaxed);
	assert(popped == NULL ? rest == &pool[0] : rest == NULL);
	return 0;
}
