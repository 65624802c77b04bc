// Szymanski's mutual exclusion (pthread-atomic's szymanski shape), two
// threads, flags 0..4 with the waiting room: a thread announces intent
// (1), waits until no other is past the door (flag < 3), moves to 3,
// goes to 2 and waits for a 4 if some other is at 1, moves to 4, waits
// for lower-numbered threads to leave (flag < 2) and enters; on exit
// it waits until higher-numbered threads are not between the door and
// the waiting room (with two threads: thread 0 waits while thread 1's
// flag is 2 or 3), then resets its flag. All flag accesses seq_cst:
// mutual exclusion under every model (PASS). BUG: relaxed flag accesses
// (the algorithm needs its stores ordered before its loads: both may
// enter under the C11 models and weak targets; sc PASS; x86 keeps
// stores in order but lets a load pass an earlier store: FAIL too).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifdef BUG
#define MO memory_order_relaxed
#else
#define MO memory_order_seq_cst
#endif

static atomic_int flag[2];
static atomic_int inside;

#define LD(i) atomic_load_explicit(&flag[i], MO)
#define ST(i, v) atomic_store_explicit(&flag[i], v, MO)

static void *thread(void *arg)
{
	int me = (int)(long)arg, o = 1 - me;
	ST(me, 1);
	while (LD(o) >= 3)
		;
	ST(me, 3);
	if (LD(o) == 1) {
		ST(me, 2);
		while (LD(o) != 4)
			;
	}
	ST(me, 4);
	if (me == 1)
		while (LD(0) >= 2)
			;
	int n = atomic_fetch_add_explicit(&inside, 1, memory_order_relaxed);
	assert(n == 0);
	atomic_fetch_sub_explicit(&inside, 1, memory_order_relaxed);
	if (me == 0)
		while (LD(1) == 2 || LD(1) == 3)
			;
	ST(me, 0);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, thread, (void *)0L);
	pthread_create(&b, NULL, thread, (void *)1L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
