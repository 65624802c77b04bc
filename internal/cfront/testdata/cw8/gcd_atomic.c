// SV-COMP's pthread-atomic gcd shape: two threads compute gcd(a, b) by
// subtraction, each owning one direction, with every test-and-subtract in
// an atomic section (__VERIFIER_atomic_ functions). a and b are
// A0 and B0 (4 and 3 unless -D says), or with -D NONDET
// nondeterministic in 1..4 (__VERIFIER_nondet_uint and assume); the loops
// run until a == b, at most 3 rounds each for these inputs (so -bound 4
// is enough; -bound 2 reaches the bound). main checks the result against
// a sequential gcd. BUG: the test and the subtraction are separate
// sections, so both threads may subtract from a stale comparison and a
// value can reach 0 or go negative: FAIL (its assert that a, b stay
// positive).
#include <pthread.h>
#include <assert.h>

#ifndef A0
#define A0 4
#endif
#ifndef B0
#define B0 3
#endif

extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

static volatile int a, b;

#ifdef BUG
static int __VERIFIER_atomic_bigger_a(void) { return a > b; }
static void __VERIFIER_atomic_sub_a(void) { a = a - b; }
static int __VERIFIER_atomic_bigger_b(void) { return b > a; }
static void __VERIFIER_atomic_sub_b(void) { b = b - a; }
#else
static void __VERIFIER_atomic_dec_a(void)
{
	if (a > b)
		a = a - b;
}
static void __VERIFIER_atomic_dec_b(void)
{
	if (b > a)
		b = b - a;
}
#endif

static int differ(void)
{
	__VERIFIER_atomic_begin();
	int d = a != b;
	__VERIFIER_atomic_end();
	return d;
}

static void *dec_a(void *arg)
{
	(void)arg;
	while (differ()) {
#ifdef BUG
		if (__VERIFIER_atomic_bigger_a())
			__VERIFIER_atomic_sub_a();
#else
		__VERIFIER_atomic_dec_a();
#endif
	}
	return NULL;
}

static void *dec_b(void *arg)
{
	(void)arg;
	while (differ()) {
#ifdef BUG
		if (__VERIFIER_atomic_bigger_b())
			__VERIFIER_atomic_sub_b();
#else
		__VERIFIER_atomic_dec_b();
#endif
	}
	return NULL;
}

static int gcd(int x, int y)
{
	while (y != 0) {
		int t = x % y;
		x = y;
		y = t;
	}
	return x;
}

int main(void)
{
#ifdef NONDET
	int a0 = __VERIFIER_nondet_uint(), b0 = __VERIFIER_nondet_uint();
	__VERIFIER_assume(a0 >= 1 && a0 <= 4 && b0 >= 1 && b0 <= 4);
#else
	int a0 = A0, b0 = B0;
#endif
	a = a0;
	b = b0;
	pthread_t t1, t2;
	pthread_create(&t1, NULL, dec_a, NULL);
	pthread_create(&t2, NULL, dec_b, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(a > 0 && b > 0);
	assert(a == gcd(a0, b0));
	return 0;
}
