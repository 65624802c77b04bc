// A compare-and-swap spinlock with exponential back-off (ck_spinlock_cas
// with ck_backoff_eb): after a failed CAS the thread waits a number of
// iterations of an empty loop with a compiler barrier
// (__asm__ __volatile__("" ::: "memory")), doubling the wait up to a
// ceiling.
// Default: acquire CAS, release unlock: PASS under every model.
// -D BUG: the unlock is relaxed: the next owner may read the counter
// stale: a race under rc11/imm; sc and x86 PASS; aarch64, power, riscv
// FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define REL memory_order_relaxed
#else
#define REL memory_order_release
#endif

static atomic_int lockw;
static int counter;

static void backoff(unsigned *ceiling) {
  for (unsigned i = 0; i < *ceiling; i++)
    __asm__ __volatile__("" ::: "memory");
  if (*ceiling < 8)
    *ceiling <<= 1;
}

static void lock(void) {
  unsigned ceiling = 1;
  int z = 0;
  while (!atomic_compare_exchange_weak_explicit(&lockw, &z, 1, memory_order_acquire, memory_order_relaxed)) {
    z = 0;
    backoff(&ceiling);
  }
}

static void unlock(void) { atomic_store_explicit(&lockw, 0, REL); }

static void *worker(void *arg) {
  (void)arg;
  lock();
  counter++;
  unlock();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
