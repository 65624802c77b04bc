// A pthread barrier reused for two rounds (a barrier resets after each
// round: POSIX pthread_barrier_wait): two workers add their id to a
// round's slot, wait, read the other's contribution, wait again before
// the next round overwrites. Default: PASS everywhere. -D BUG: the
// second wait of each round is left out: a worker may overwrite the
// next round's value while the other still reads the previous one: a
// data race (RACE under rc11/imm) and a wrong read (FAIL elsewhere).
#include <assert.h>
#include <pthread.h>

static pthread_barrier_t bar;
static int val[2];

static void *worker(void *arg) {
  int id = (int)(long)arg;
  for (int round = 1; round <= 2; round++) {
    val[id] = round * 10 + id;
    pthread_barrier_wait(&bar);
    int other = val[1 - id];
    assert(other == round * 10 + (1 - id));
#ifndef BUG
    pthread_barrier_wait(&bar);
#endif
  }
  return 0;
}

int main(void) {
  pthread_barrier_init(&bar, 0, 2);
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0);
  pthread_create(&b, 0, worker, (void *)1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
