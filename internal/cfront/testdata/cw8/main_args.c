// main's parameters as a command run without arguments gives them
// (C11 5.1.2.2.1): argc 1, argv[0] the program's name (a string not
// empty), argv[argc] NULL; envp (a common third parameter) an
// environment (Musket's is empty). A thread walks argv. Musket gave argc 0 and argv
// NULL before: the count was 0 and argv[0] an invalid access.
// BUG: expects an argument (argc == 2): FAIL (natively too, run without
// arguments).
#include <pthread.h>
#include <stddef.h>
#include <assert.h>

static char **args;
static int count;

static void *walker(void *arg)
{
	(void)arg;
	int n = 0;
	for (char **p = args; *p; p++)
		n++;
	count = n;
	return NULL;
}

int main(int argc, char **argv, char **envp)
{
	args = argv;
	pthread_t t;
	pthread_create(&t, NULL, walker, NULL);
	pthread_join(t, NULL);
	assert(count == argc);
	assert(argv[0] != NULL && argv[0][0] != 0);
	assert(argv[argc] == NULL && envp != NULL);
#ifdef BUG
	assert(argc == 2);
#endif
	return 0;
}
