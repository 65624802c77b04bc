// Thread-local state: each of three threads counts into a __thread
// variable (starting at its initialiser, 10) in a loop of two, then adds
// its count to a shared atomic total; main's own copy stays 10. PASS
// everywhere. -DBUG: the count is a plain static shared by all threads:
// RACE under rc11/imm; FAIL (a lost or doubled count) under sc, x86,
// aarch64, power, riscv.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef BUG
static int mine = 10;
#else
static __thread int mine = 10;
#endif
atomic_int total;
void *worker(void *arg) {
  for (int i = 0; i < 2; i++)
    mine++;
  atomic_fetch_add_explicit(&total, mine, memory_order_relaxed);
  return NULL;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  assert(atomic_load(&total) == 36);
  assert(mine == 10);
  return 0;
}
