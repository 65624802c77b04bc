// A spinlock made of a C11 atomic_flag: test_and_set with acquire to
// take it, clear with release to drop it; two workers add to a plain
// counter twice each under it. Default: PASS everywhere. -D BUG: clear
// is relaxed: the counter's store may be seen after the flag's clear
// (RACE under rc11/imm; sc and x86: PASS; aarch64, power, riscv: FAIL,
// a lost update).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define REL memory_order_relaxed
#else
#define REL memory_order_release
#endif

static atomic_flag lock = ATOMIC_FLAG_INIT;
static int counter;

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++) {
    while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
      ;
    counter++;
    atomic_flag_clear_explicit(&lock, REL);
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
