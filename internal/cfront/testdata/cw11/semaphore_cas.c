// A counting semaphore built on one atomic counter (the fast path of
// user-space semaphores): down() decrements by CAS only when the count is
// positive, up() adds 1 with release. Three threads share two permits;
// inside, each counts itself in and out of `inside` and checks that at
// most two are in.
// Default: PASS under every model.
// -D BUG: down() reads the count and then decrements with a separate
// fetch_sub (check-then-act): three threads may pass with two permits:
// FAIL under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int permits = 2;
static atomic_int inside;

static void down(void) {
  for (;;) {
    int c = atomic_load_explicit(&permits, memory_order_relaxed);
    if (c <= 0)
      continue;
#ifdef BUG
    atomic_fetch_sub_explicit(&permits, 1, memory_order_acquire);
    return;
#else
    if (atomic_compare_exchange_weak_explicit(&permits, &c, c - 1, memory_order_acquire,
                                              memory_order_relaxed))
      return;
#endif
  }
}

static void up(void) { atomic_fetch_add_explicit(&permits, 1, memory_order_release); }

static void *worker(void *arg) {
  (void)arg;
  down();
  int n = atomic_fetch_add(&inside, 1) + 1;
  assert(n <= 2);
  atomic_fetch_sub(&inside, 1);
  up();
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(atomic_load(&permits) == 2);
  return 0;
}
