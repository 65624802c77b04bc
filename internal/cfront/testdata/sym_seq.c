/* Three identical workers, each created and joined before the next is
   created: each adds one to a plain counter, which is 3 at the end
   (correct). The symmetric threads' joins come between their creations:
   the SMT engine's symmetry breaking keeps such a group under Power,
   RISC-V and x86-TSO but not under ARMv8 (smtsym.go). */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static int counter;

static void *worker(void *arg) {
	(void)arg;
	counter = counter + 1;
	return NULL;
}

int main(void) {
	pthread_t t[3];
	for (int i = 0; i < 3; i++) {
		pthread_create(&t[i], NULL, worker, NULL);
		pthread_join(t[i], NULL);
	}
	assert(counter == 3);
	return 0;
}
