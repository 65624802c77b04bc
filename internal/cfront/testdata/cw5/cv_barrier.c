// A user's own reusable barrier: a mutex, a condition variable, a
// count and a generation number; the last thread to arrive starts a new
// generation and broadcasts, the others wait while the generation is
// theirs (in a while loop: a wake-up may be spurious). Three threads,
// two phases, each reading its neighbour's slot of the previous phase.
// PASS under every model.
// -DBUG: if instead of while: a spurious wake-up (POSIX allows them)
// lets a thread leave before the others arrived and read a slot not
// yet written (FAIL under sc and the targets; RACE under rc11 and imm).
#include <pthread.h>
#include <assert.h>
#define N 3
struct barrier {
  pthread_mutex_t m;
  pthread_cond_t c;
  int count, gen;
} bar = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
static void barrier_wait(struct barrier *b) {
  pthread_mutex_lock(&b->m);
  int g = b->gen;
  if (++b->count == N) {
    b->count = 0;
    b->gen++;
    pthread_cond_broadcast(&b->c);
  } else {
#ifdef BUG
    if (g == b->gen)
#else
    while (g == b->gen)
#endif
      pthread_cond_wait(&b->c, &b->m);
  }
  pthread_mutex_unlock(&b->m);
}
static int slot[N];
static int seen[N];
static void *work(void *arg) {
  int id = (int)(long)arg;
  slot[id] = id + 1;
  barrier_wait(&bar);
  seen[id] = slot[(id + 1) % N];
  return NULL;
}
int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], NULL, work, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < N; i++)
    assert(seen[i] == (i + 1) % N + 1);
  return 0;
}
