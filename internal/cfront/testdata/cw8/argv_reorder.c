// SV-COMP's reorder shape: main(argc, argv) chooses how many setter and
// checker threads to start, with defaults when no argument is given;
// setters write a then b, checkers read them. The program is run without
// arguments (argc 1), so the defaults hold: 1 setter, 1 checker.
// Correct: a and b are atomics, the setter writes a before b with
// release and the checker reads b before a with acquire: b == 1 implies
// a == 1. BUG: relaxed orders (so the reorder may be seen on weak
// hardware and under the C11 models; sc and x86 keep it). The counts are
// parsed by hand (one digit); -D ATOI parses them with atoi (strtol's
// loop since cwild9; never reached: argc is 1, so PASS as the default;
// it was refused before, at this file's line). -D ARGC_NE: the guard is argc != 1 (arguments
// given: exactly two); argc is 1, so the defaults hold. -D TWO: main's defaults are 2 setters and 2
// checkers (argc is still 1).
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <assert.h>

#ifdef BUG
#define WR memory_order_relaxed
#define RD memory_order_relaxed
#else
#define WR memory_order_release
#define RD memory_order_acquire
#endif

static atomic_int a, b;
#ifdef TWO
static int iSet = 2, iCheck = 2;
#else
static int iSet = 1, iCheck = 1;
#endif

#ifdef ATOI
#define num atoi
#else
static int num(const char *s)
{
	return s[0] >= '0' && s[0] <= '9' ? s[0] - '0' : -1;
}
#endif

static void *setter(void *arg)
{
	(void)arg;
	atomic_store_explicit(&a, 1, memory_order_relaxed);
	atomic_store_explicit(&b, 1, WR);
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	int rb = atomic_load_explicit(&b, RD);
	int ra = atomic_load_explicit(&a, memory_order_relaxed);
	assert(!(rb == 1 && ra == 0));
	return NULL;
}

int main(int argc, char *argv[])
{
#ifdef ARGC_NE
	if (argc != 1) {
		if (argc != 3)
			return 1;
		iSet = num(argv[1]);
		iCheck = num(argv[2]);
	}
#else
	if (argc > 1)
		iSet = num(argv[1]);
	if (argc > 2)
		iCheck = num(argv[2]);
#endif
	if (iSet > 2 || iCheck > 2 || iSet < 0 || iCheck < 0)
		return 1;
	pthread_t s[2], c[2];
	for (int i = 0; i < iSet; i++)
		pthread_create(&s[i], NULL, setter, NULL);
	for (int i = 0; i < iCheck; i++)
		pthread_create(&c[i], NULL, checker, NULL);
	for (int i = 0; i < iSet; i++)
		pthread_join(s[i], NULL);
	for (int i = 0; i < iCheck; i++)
		pthread_join(c[i], NULL);
	return 0;
}
