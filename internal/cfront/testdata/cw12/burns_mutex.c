// Burns and Lynch's one-bit mutual exclusion for two threads: thread i
// raises its flag, backs off while a lower-numbered thread's flag is up,
// and enters only when no higher-numbered thread's flag is up either.
// Each thread counts itself in and out of the critical section and
// asserts it is alone.
// Default: seq_cst flags: PASS under every model.
// -D BUG: release stores and acquire loads of the flags: store
// buffering lets both threads see the other's flag down: FAIL under
// rc11, imm, x86, power, riscv; sc PASS (its accesses stay in order),
// aarch64 PASS (a release store then an acquire load, STLR then LDAR,
// stay in order on ARMv8: its release and acquire are RCsc).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define ST memory_order_release
#define LD memory_order_acquire
#else
#define ST memory_order_seq_cst
#define LD memory_order_seq_cst
#endif

static atomic_int flag[2];
static atomic_int inside;

static void *thread(void *arg) {
  int i = (int)(long)arg;
  if (i == 1) {
    // Back off while thread 0 wants in.
    for (;;) {
      atomic_store_explicit(&flag[1], 0, ST);
      while (atomic_load_explicit(&flag[0], LD))
        ;
      atomic_store_explicit(&flag[1], 1, ST);
      if (!atomic_load_explicit(&flag[0], LD))
        break;
    }
  } else {
    atomic_store_explicit(&flag[0], 1, ST);
    while (atomic_load_explicit(&flag[1], LD))
      ;
  }
  int n = atomic_fetch_add_explicit(&inside, 1, memory_order_relaxed);
  assert(n == 0);
  atomic_fetch_sub_explicit(&inside, 1, memory_order_relaxed);
  atomic_store_explicit(&flag[i], 0, ST);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, thread, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
