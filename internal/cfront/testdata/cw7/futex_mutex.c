// U. Drepper's three-state mutex ("Futexes Are Tricky", mutex3): 0 free,
// 1 locked, 2 locked with waiters. lock: CAS 0->1, else mark contended
// by exchange(2) until the exchange returns 0; unlock: fetch_sub, and
// if the old value was 2, store 0 and wake (here the waiter spins, so
// the wake is a no-op). Two threads increment a plain counter twice.
// The exchange loop writes, so it is not a spin loop: a thread may go
// round it once per lock the other takes: -bound 4 (BOUND at 2 and 3).
// Default: PASS under every model.
// -DBUG: the unlock's fetch_sub and store are relaxed: the counter's
// write is not released to the next owner: RACE under rc11 and imm;
// sc and x86 keep the order (PASS); aarch64, power and riscv may lose
// an update (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define REL memory_order_relaxed
#else
#define REL memory_order_release
#endif

static atomic_int word;
static int counter;

static void futex_wait(atomic_int *w, int v) {
  while (atomic_load_explicit(w, memory_order_relaxed) == v)
    ; /* spins where the kernel would sleep */
}

static void lock(void) {
  int c = 0;
  if (atomic_compare_exchange_strong_explicit(&word, &c, 1, memory_order_acquire, memory_order_relaxed))
    return;
  if (c != 2)
    c = atomic_exchange_explicit(&word, 2, memory_order_acquire);
  while (c != 0) {
    futex_wait(&word, 2);
    c = atomic_exchange_explicit(&word, 2, memory_order_acquire);
  }
}

static void unlock(void) {
  if (atomic_fetch_sub_explicit(&word, 1, REL) != 1)
    atomic_store_explicit(&word, 0, REL);
}

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++) {
    lock();
    counter++;
    unlock();
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 4);
  return 0;
}
