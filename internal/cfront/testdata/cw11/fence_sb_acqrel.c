// Dekker's store buffering through C11 fences: each thread sets its flag
// (relaxed), fences, and reads the other's flag (relaxed); both reading 0
// is forbidden when the fences are seq_cst (C11 7.17.4, the fences' order
// in S). An acq_rel fence does not forbid it.
// Default: seq_cst fences: PASS under every model.
// -D BUG: acq_rel fences. C11 allows both zeros: FAIL under rc11 and imm.
// What the targets do follows from clang-14's fence code: x86 emits
// nothing for an acq_rel fence (FAIL, store buffering); aarch64 emits
// dmb ish, a full barrier (PASS); power lwsync (FAIL: no store-load
// order); riscv fence.tso (FAIL: no store-load order); sc PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int x, y;
static int r1, r2;

#ifdef BUG
#define FENCE memory_order_acq_rel
#else
#define FENCE memory_order_seq_cst
#endif

static void *t1(void *arg) {
  (void)arg;
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  atomic_thread_fence(FENCE);
  r1 = atomic_load_explicit(&y, memory_order_relaxed);
  return 0;
}

static void *t2(void *arg) {
  (void)arg;
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  atomic_thread_fence(FENCE);
  r2 = atomic_load_explicit(&x, memory_order_relaxed);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(r1 == 1 || r2 == 1);
  return 0;
}
