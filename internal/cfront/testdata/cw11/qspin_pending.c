// A queued spinlock's first two levels, as Linux's qspinlock keeps them
// in one 32-bit word: bit 0 "locked", bit 8 "pending". lock: a CAS from 0
// to locked is the fast path; otherwise a thread sets pending (fetch_or,
// acquire) when no one else is pending, spins until locked is clear, then
// takes the lock and clears pending in one CAS (pending -> locked).
// Unlock clears locked (release fetch_and). Three threads increment a
// plain counter under the lock once each (three, so that a pending
// waiter and a third contender meet).
// Default: PASS under every model (the counter ends at 3).
// -D BUG: the pending path waits for locked to clear with a relaxed load
// and takes the lock with a relaxed store instead of an acquiring CAS:
// mutual exclusion holds, but nothing orders the new holder's accesses
// after the old holder's unlock: RACE under rc11 and imm; a lost
// increment (FAIL) under aarch64, power, riscv; sc and x86 PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define LOCKED 1u
#define PENDING 0x100u
static atomic_uint word;
static int counter;

static void lock(void) {
  unsigned zero = 0;
  if (atomic_compare_exchange_strong_explicit(&word, &zero, LOCKED, memory_order_acquire,
                                              memory_order_relaxed))
    return;
  for (;;) {
    unsigned old = atomic_fetch_or_explicit(&word, PENDING, memory_order_acquire);
    if (!(old & PENDING)) {
      if (!(old & LOCKED)) {
        /* Lock was released between the two steps: pending is ours. */
      }
      break;
    }
    while (atomic_load_explicit(&word, memory_order_relaxed) & PENDING)
      ;
    zero = 0;
    if (atomic_compare_exchange_strong_explicit(&word, &zero, LOCKED, memory_order_acquire,
                                                memory_order_relaxed))
      return;
  }
  /* We hold pending: wait for the owner to go, then pending -> locked. */
#ifdef BUG
  while (atomic_load_explicit(&word, memory_order_relaxed) & LOCKED)
    ;
  atomic_store_explicit(&word, LOCKED, memory_order_relaxed);
#else
  for (;;) {
    unsigned v = atomic_load_explicit(&word, memory_order_relaxed);
    if (v & LOCKED)
      continue;
    if (atomic_compare_exchange_weak_explicit(&word, &v, (v & ~PENDING) | LOCKED,
                                              memory_order_acquire, memory_order_relaxed))
      return;
  }
#endif
}

static void unlock(void) { atomic_fetch_and_explicit(&word, ~LOCKED, memory_order_release); }

static void *worker(void *arg) {
  (void)arg;
  lock();
  counter++;
  unlock();
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(counter == 3);
  return 0;
}
