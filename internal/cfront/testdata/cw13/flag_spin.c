// A spin lock made of atomic_flag (C11 7.17.8): test_and_set with
// acquire, clear with release, protecting a plain two-field record.
// Default: PASS under every model.
// -D BUG: clear is relaxed: the next owner's acquire does not
// synchronise with the previous critical section: a race under rc11 and
// imm (R); on aarch64, power and riscv the record may be seen half
// written (FAIL); x86 and sc PASS (stores stay in order).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define CLR memory_order_relaxed
#else
#define CLR memory_order_release
#endif

static atomic_flag lk = ATOMIC_FLAG_INIT;
static struct {
  int lo, hi;
} rec;

static void *worker(void *arg) {
  int v = (int)(long)arg;
  while (atomic_flag_test_and_set_explicit(&lk, memory_order_acquire))
    ;
  assert(rec.hi == rec.lo);
  rec.lo = v;
  rec.hi = v;
  atomic_flag_clear_explicit(&lk, CLR);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)(i + 1));
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
