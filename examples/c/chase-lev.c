/* Chase-Lev work-stealing deque, in the C11 version of Le, Pop, Cohen,
   Zappa Nardelli ("Correct and Efficient Work-Stealing for Weak Memory
   Models", PPoPP 2013), on a fixed array (no resizing). The owner pushes
   1 and 2 and takes one; a thief steals twice. No element may be taken
   twice, and every taken element is one that was pushed. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define SIZE 4
#define EMPTY (-1)

static atomic_int top, bottom;
static atomic_int buf[SIZE];
static int taken, stolen1, stolen2;

static void push(int x) {
	int b = atomic_load_explicit(&bottom, memory_order_relaxed);
	int t = atomic_load_explicit(&top, memory_order_acquire);
	assert(b - t < SIZE);
	atomic_store_explicit(&buf[b % SIZE], x, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
}

static int take(void) {
	int b = atomic_load_explicit(&bottom, memory_order_relaxed) - 1;
	atomic_store_explicit(&bottom, b, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst); /* TAKE FENCE */
	int t = atomic_load_explicit(&top, memory_order_relaxed);
	int x;
	if (t <= b) {
		x = atomic_load_explicit(&buf[b % SIZE], memory_order_relaxed);
		if (t == b) {
			if (!atomic_compare_exchange_strong_explicit(&top, &t, t + 1, memory_order_seq_cst,
			                                             memory_order_relaxed))
				x = EMPTY;
			atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
		}
	} else {
		x = EMPTY;
		atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
	}
	return x;
}

static int steal(void) {
	int t = atomic_load_explicit(&top, memory_order_acquire);
	atomic_thread_fence(memory_order_seq_cst);
	int b = atomic_load_explicit(&bottom, memory_order_acquire);
	int x = EMPTY;
	if (t < b) {
		x = atomic_load_explicit(&buf[t % SIZE], memory_order_relaxed);
		if (!atomic_compare_exchange_strong_explicit(&top, &t, t + 1, memory_order_seq_cst,
		                                             memory_order_relaxed))
			return EMPTY;
	}
	return x;
}

static void *owner(void *arg) {
	(void)arg;
	push(1);
	push(2);
	taken = take();
	return NULL;
}

static void *thief(void *arg) {
	(void)arg;
	stolen1 = steal();
	stolen2 = steal();
	return NULL;
}

int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, NULL, owner, NULL);
	pthread_create(&t2, NULL, thief, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(taken == EMPTY || taken == 1 || taken == 2);
	assert(stolen1 == EMPTY || stolen1 == 1 || stolen1 == 2);
	assert(stolen2 == EMPTY || stolen2 == 1 || stolen2 == 2);
	/* no element taken twice */
	assert(taken == EMPTY || (taken != stolen1 && taken != stolen2));
	assert(stolen1 == EMPTY || stolen1 != stolen2);
	return 0;
}
