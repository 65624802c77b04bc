// C11 <threads.h>: two workers add to a counter under an mtx_t, wait on
// a cnd_t until main has opened the gate, and return their results
// through thrd_join; a call_once initialisation runs exactly once.
#include <assert.h>
#include <threads.h>

static mtx_t m;
static cnd_t gate_cv;
static int open_, count, inits;
static once_flag once = ONCE_FLAG_INIT;

static void init(void) { inits++; }

static int worker(void *arg) {
	call_once(&once, init);
	mtx_lock(&m);
	while (!open_)
		cnd_wait(&gate_cv, &m);
	count += (int)(long)arg;
	mtx_unlock(&m);
	thrd_yield();
	return (int)(long)arg * 2;
}

int main(void) {
	thrd_t t1, t2;
	int r1, r2;
	mtx_init(&m, mtx_plain);
	cnd_init(&gate_cv);
	thrd_create(&t1, worker, (void *)1);
	thrd_create(&t2, worker, (void *)2);
	mtx_lock(&m);
	open_ = 1;
	cnd_broadcast(&gate_cv);
	mtx_unlock(&m);
	thrd_join(t1, &r1);
	thrd_join(t2, &r2);
	assert(count == 3 && r1 == 2 && r2 == 4);
#ifdef BUG
	assert(inits == 2);
#else
	assert(inits == 1);
#endif
	mtx_destroy(&m);
	cnd_destroy(&gate_cv);
	return 0;
}
