#include <assert.h>
#include <pthread.h>
// A program's own semaphore, named as POSIX names it (buggy: sem_post is a
// load and a store, so two posts may count one, and main's second wait
// spins for ever). Musket checks this code, not POSIX's sem_post.
typedef struct { int v; } sem_t;
int sem_init(sem_t *s, int p, unsigned v) { s->v = v; return 0; }
int sem_post(sem_t *s) { int x = __atomic_load_n(&s->v, __ATOMIC_RELAXED); __atomic_store_n(&s->v, x + 1, __ATOMIC_RELAXED); return 0; }
int sem_wait(sem_t *s) { while (__atomic_load_n(&s->v, __ATOMIC_RELAXED) == 0) ; __atomic_fetch_sub(&s->v, 1, __ATOMIC_RELAXED); return 0; }
static sem_t s;
static void *t(void *a) { sem_post(&s); return 0; }
int main(void) {
	pthread_t a, b;
	sem_init(&s, 0, 0);
	pthread_create(&a, 0, t, 0);
	pthread_create(&b, 0, t, 0);
	sem_wait(&s);
	sem_wait(&s);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
