// Strict alternation by a turn variable (the first attempt at mutual
// exclusion in the textbooks): thread i waits for turn == i, appends its
// mark to a log, and hands the turn over; two rounds each.
// Default: release hand-over, acquire wait: the log is 0 1 0 1: PASS
// under every model.
// -D BUG: the hand-over is relaxed: the next thread may read a stale
// log position: a race under rc11/imm; sc and x86 PASS; aarch64, power,
// riscv FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define HAND memory_order_relaxed
#else
#define HAND memory_order_release
#endif

static atomic_int turn;
static int logv[4];
static int pos;

static void *thread(void *arg) {
  int i = (int)(long)arg;
  for (int round = 0; round < 2; round++) {
    while (atomic_load_explicit(&turn, memory_order_acquire) != i)
      ;
    logv[pos] = i;
    pos++;
    atomic_store_explicit(&turn, 1 - i, HAND);
  }
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, thread, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(pos == 4);
  for (int k = 0; k < 4; k++)
    assert(logv[k] == k % 2);
  return 0;
}
