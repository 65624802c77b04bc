// A decrement lock in the style of ck_spinlock_dec: the lock word is 1
// when free; a thread takes it when its atomic decrement returns 1, and
// otherwise spins until the word is back to 1 (a reader's load) before
// trying again; unlock stores 1 with release.
// Default: the decrement is acquire, the unlock's store release: the
// counter's increments are ordered: PASS under every model.
// -D BUG: the decrement is relaxed: the critical section's read of
// count may read a stale value (no synchronisation with the previous
// unlock): a race under rc11/imm; sc and x86 PASS (an RMW orders on x86);
// aarch64, power, riscv FAIL (the load of count may be satisfied early).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define ACQ memory_order_relaxed
#else
#define ACQ memory_order_acquire
#endif

static atomic_int lockw = 1;
static int count;

static void lock(void) {
  while (atomic_fetch_sub_explicit(&lockw, 1, ACQ) != 1) {
    while (atomic_load_explicit(&lockw, memory_order_relaxed) != 1)
      ;
  }
}

static void unlock(void) { atomic_store_explicit(&lockw, 1, memory_order_release); }

static void *worker(void *arg) {
  (void)arg;
  lock();
  count++;
  unlock();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2);
  return 0;
}
