// Hyman's mutual exclusion (1966), the published simplification of
// Dekker's algorithm that is wrong even under sequential consistency:
// with flags and a turn variable, Hyman's thread sets turn to itself
// after waiting for the other's flag to drop, so both may pass. Next to
// it, Peterson's algorithm, which gets the same flags and turn right.
// Default: Peterson's algorithm, seq_cst: PASS under every model.
// -D BUG: Hyman's: FAIL under every model (an interleaving lets both in).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int want[2];
static atomic_int turn;
static atomic_int inside;

static void enter(int i) {
  int j = 1 - i;
  atomic_store(&want[i], 1);
#ifndef BUG
  atomic_store(&turn, j);
  while (atomic_load(&want[j]) && atomic_load(&turn) == j)
    ;
#else
  while (atomic_load(&turn) != i) {
    while (atomic_load(&want[j]))
      ;
    atomic_store(&turn, i);
  }
#endif
}

static void leave(int i) { atomic_store(&want[i], 0); }

static void *thread(void *arg) {
  int i = (int)(long)arg;
  enter(i);
  int n = atomic_fetch_add(&inside, 1);
  assert(n == 0);
  atomic_fetch_sub(&inside, 1);
  leave(i);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, thread, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
