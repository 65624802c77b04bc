// SV-COMP's qrcu shape (quick RCU), small: readers pick the current index
// and take a reference on ctr[idx] in one atomic section
// (__VERIFIER_atomic_), read the protected value, drop the reference;
// the updater writes the new value, flips idx, and waits until the old
// index's counter drains to 0 before reclaiming (setting the old value to
// a poison). A reader that saw the old value with its reference held must
// never see the poison: reclamation waits for it. Correct: PASS. BUG:
// the reader reads idx and takes its reference in two sections (the
// updater may flip and drain between them, then the reader holds a
// reference the updater no longer waits for: it reads the poison).
// The drain loop takes the atomic section in every round (the hidden
// lock's acquire and release are writes), so it is no spin loop: a
// reader that keeps its reference makes it run past any bound (BOUND;
// the BUG's failure is found within the bound). -D ASSUME waits as
// SV-COMP's qrcu does, by assuming the counter drained inside a section:
// PASS.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);

#define POISON (-1)

static int idx;
static int ctr[2] = {1, 0}; /* the initial reference of index 0 */
static int slot[2] = {10, 0};

static int reader_lock(void)
{
	int i;
	__VERIFIER_atomic_begin();
	i = idx;
#ifdef BUG
	__VERIFIER_atomic_end();
	__VERIFIER_atomic_begin();
#endif
	ctr[i]++;
	__VERIFIER_atomic_end();
	return i;
}

static void reader_unlock(int i)
{
	__VERIFIER_atomic_begin();
	ctr[i]--;
	__VERIFIER_atomic_end();
}

static void *reader(void *arg)
{
	(void)arg;
	int i = reader_lock();
	int v;
	__VERIFIER_atomic_begin();
	v = slot[i];
	__VERIFIER_atomic_end();
	assert(v != POISON);
	reader_unlock(i);
	return NULL;
}

static void *updater(void *arg)
{
	(void)arg;
	int old, drained;
	__VERIFIER_atomic_begin();
	old = idx;
	slot[1 - old] = 20;
	idx = 1 - old;
	ctr[old]--; /* drop the initial reference */
	__VERIFIER_atomic_end();
#ifdef ASSUME
	__VERIFIER_atomic_begin();
	__VERIFIER_assume(ctr[old] == 0);
	__VERIFIER_atomic_end();
	(void)drained;
#else
	do {
		__VERIFIER_atomic_begin();
		drained = ctr[old] == 0;
		__VERIFIER_atomic_end();
	} while (!drained);
#endif
	__VERIFIER_atomic_begin();
	slot[old] = POISON;
	__VERIFIER_atomic_end();
	return NULL;
}

int main(void)
{
	pthread_t r, u;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&u, NULL, updater, NULL);
	pthread_join(r, NULL);
	pthread_join(u, NULL);
	return 0;
}
