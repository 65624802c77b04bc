// A ticket lock with four threads from an array of pthread_t, each
// taking the lock once around a plain counter. The lock is a struct of
// two atomics reached through a pointer passed as the thread argument.
// PASS everywhere. -DBUG: unlock publishes now_serving relaxed: RACE
// under rc11/imm on the counter; FAIL at the final assertion under
// aarch64, power, riscv (a lost increment); PASS under sc and x86.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef BUG
#define REL memory_order_relaxed
#else
#define REL memory_order_release
#endif
#ifndef N
#define N 4
#endif
struct ticketlock {
  atomic_uint next;
  atomic_uint serving;
};
struct ticketlock lk;
int counter;
void *worker(void *arg) {
  struct ticketlock *l = arg;
  unsigned t = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
  while (atomic_load_explicit(&l->serving, memory_order_acquire) != t)
    ;
  counter++;
  atomic_store_explicit(&l->serving, t + 1, REL);
  return NULL;
}
int main(void) {
  pthread_t th[N];
  for (int i = 0; i < N; i++)
    pthread_create(&th[i], NULL, worker, &lk);
  for (int i = 0; i < N; i++)
    pthread_join(th[i], NULL);
  assert(counter == N);
  return 0;
}
