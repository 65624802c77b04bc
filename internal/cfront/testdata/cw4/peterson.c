// Peterson's lock for two threads in C11 atomics: the flags and the turn
// are seq_cst, so a thread reads the other's flag only after its own
// writes are visible. Each thread bumps a plain counter twice inside the
// lock. PASS everywhere. -DBUG: the flag and turn stores are release and
// the loads acquire (no store-to-load order): both threads can enter
// (store buffering), RACE under rc11/imm, FAIL at the final assertion on
// x86, aarch64, power, riscv; PASS under sc.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef BUG
#define ST memory_order_release
#define LD memory_order_acquire
#else
#define ST memory_order_seq_cst
#define LD memory_order_seq_cst
#endif
atomic_int flag[2];
atomic_int turn;
int counter;
static void lock(int me) {
  int other = 1 - me;
  atomic_store_explicit(&flag[me], 1, ST);
  atomic_store_explicit(&turn, other, ST);
  while (atomic_load_explicit(&flag[other], LD) && atomic_load_explicit(&turn, LD) == other)
    ;
}
static void unlock(int me) { atomic_store_explicit(&flag[me], 0, memory_order_release); }
void *worker(void *arg) {
  int me = (int)(long)arg;
  lock(me);
  counter++;
  unlock(me);
  return NULL;
}
int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(counter == 2);
  return 0;
}
