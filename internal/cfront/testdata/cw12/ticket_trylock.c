// A ticket lock with a try-lock for low contention (the shape of
// SV-COMP's ticket_lock_low_contention): trylock succeeds only when the
// lock is free, by a CAS of next from the value serving has; lock takes
// a ticket with fetch_add and waits for its turn. One thread uses
// trylock (and gives up if it fails), the other lock.
// Default: PASS under every model (the count ends at 1 or 2, and is 2
// exactly when the try succeeded).
// -D BUG: trylock compares next with serving + 1 (an off-by-one): it
// takes a lock that is held: FAIL under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define FREE_WHEN 1
#else
#define FREE_WHEN 0
#endif

static atomic_uint next, serving;
static int count;

static int trylock(void) {
  unsigned s = atomic_load_explicit(&serving, memory_order_acquire);
  unsigned want = s + FREE_WHEN;
  return atomic_compare_exchange_strong_explicit(&next, &want, want + 1, memory_order_acquire, memory_order_relaxed);
}

static void lock(void) {
  unsigned me = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
  while (atomic_load_explicit(&serving, memory_order_acquire) != me)
    ;
}

static void unlock(void) {
  unsigned s = atomic_load_explicit(&serving, memory_order_relaxed);
  atomic_store_explicit(&serving, s + 1, memory_order_release);
}

static atomic_int tried;

static void *trier(void *arg) {
  (void)arg;
  if (trylock()) {
    int c = count;
    count = c + 1;
    atomic_store(&tried, 1);
    unlock();
  }
  return 0;
}

static void *locker(void *arg) {
  (void)arg;
  lock();
  int c = count;
  count = c + 1;
  unlock();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, trier, 0);
  pthread_create(&b, 0, locker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 1 + atomic_load(&tried));
  return 0;
}
