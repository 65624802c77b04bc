// Lamport's bakery for two threads with seq_cst atomics (choosing and
// number arrays), each entering once and incrementing a plain counter.
// PASS under every model.
// -DBUG: every bakery access relaxed: both threads can enter (RACE under
// rc11 and imm; FAIL on x86, whose store buffer lets a thread miss the
// other's choosing flag, and on aarch64; sc PASS).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#define N 2
#ifdef BUG
#define MO memory_order_relaxed
#else
#define MO memory_order_seq_cst
#endif
static atomic_bool choosing[N];
static atomic_int number[N];
static int counter;
static void lock(int i) {
  atomic_store_explicit(&choosing[i], 1, MO);
  int max = 0;
  for (int j = 0; j < N; j++) {
    int n = atomic_load_explicit(&number[j], MO);
    if (n > max)
      max = n;
  }
  atomic_store_explicit(&number[i], max + 1, MO);
  atomic_store_explicit(&choosing[i], 0, MO);
  for (int j = 0; j < N; j++) {
    if (j == i)
      continue;
    while (atomic_load_explicit(&choosing[j], MO))
      ;
    for (;;) {
      int nj = atomic_load_explicit(&number[j], MO);
      int ni = atomic_load_explicit(&number[i], MO);
      if (nj == 0 || nj > ni || (nj == ni && j > i))
        break;
    }
  }
}
static void unlock(int i) { atomic_store_explicit(&number[i], 0, MO); }
static void *thr(void *arg) {
  int i = (int)(long)arg;
  lock(i);
  counter++;
  unlock(i);
  return NULL;
}
int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], NULL, thr, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  assert(counter == N);
  return 0;
}
