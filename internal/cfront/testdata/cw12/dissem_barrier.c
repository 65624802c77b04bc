// A dissemination barrier for two threads (ck_barrier_dissemination's
// shape, Hensgen, Finkel and Manber): in each of log2(n) rounds thread i
// signals its partner (i + 2^k) % n by setting a flag and waits for its
// own flag, then clears it. Each thread writes its slot before the
// barrier and reads the other's after it.
// Default: release stores of the flags, acquire loads: PASS under every
// model.
// -D BUG: the flags are set with relaxed stores: the read after the
// barrier may miss the other's write: a race under rc11/imm; sc and x86
// PASS; aarch64, power, riscv FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define SIG memory_order_relaxed
#else
#define SIG memory_order_release
#endif

#define N 2

static atomic_int flag[N];
static int slot[N];

static void barrier(int i) {
  int partner = (i + 1) % N; // one round for two threads
  atomic_store_explicit(&flag[partner], 1, SIG);
  while (!atomic_load_explicit(&flag[i], memory_order_acquire))
    ;
  atomic_store_explicit(&flag[i], 0, memory_order_relaxed);
}

static void *thread(void *arg) {
  int i = (int)(long)arg;
  slot[i] = i + 1;
  barrier(i);
  assert(slot[1 - i] == 2 - i);
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, thread, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  return 0;
}
