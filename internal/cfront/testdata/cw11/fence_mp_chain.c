// Message passing along a chain of three threads through fences only
// (every flag access relaxed): T1 writes data, a release fence, flag1; T2
// reads flag1, an acq_rel fence, writes flag2; T3 reads flag2, an acquire
// fence, reads data. C11 7.17.4: T1's fence synchronizes with T2's, and
// T2's (a release fence too) with T3's: data's write happens before the
// read.
// Default: PASS under every model.
// -D BUG: T2's fence is only an acquire fence: nothing makes T1's write
// happen before T3's read: RACE under rc11 and imm. The targets are
// multi-copy atomic or cumulative here (x86, aarch64 with dmb ishld in
// T2, power's lwsync, riscv's fence r,rw): PASS under sc, x86, aarch64,
// power, riscv.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static int data;
static atomic_int flag1, flag2;

#ifdef BUG
#define MID memory_order_acquire
#else
#define MID memory_order_acq_rel
#endif

static void *t1(void *arg) {
  (void)arg;
  data = 42;
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&flag1, 1, memory_order_relaxed);
  return 0;
}

static void *t2(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&flag1, memory_order_relaxed)) {
    atomic_thread_fence(MID);
    atomic_store_explicit(&flag2, 1, memory_order_relaxed);
  }
  return 0;
}

static void *t3(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&flag2, memory_order_relaxed)) {
    atomic_thread_fence(memory_order_acquire);
    assert(data == 42);
  }
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_create(&c, 0, t3, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
