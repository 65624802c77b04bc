// Message passing through relaxed atomics and fences of each order
// (C11 7.17.4): the writer's release (or acq_rel, or seq_cst) fence
// before the flag, the reader's acquire (or acq_rel, or seq_cst) fence
// after it make the fences synchronise (7.17.4p2), so the plain payload
// is read race-free. Three pairs run at once, one per order.
// Default: PASS under every model.
// -D BUG: the acq_rel pair's reader uses a relaxed fence (no fence at
// all, 7.17.4p4 gives it no effect): a race under rc11 and imm (R),
// FAIL on aarch64, power and riscv; x86 and sc PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define RD memory_order_relaxed
#else
#define RD memory_order_acq_rel
#endif

static int data[3];
static atomic_int flag[3];

static void *writer(void *a) {
  (void)a;
  data[0] = 10;
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&flag[0], 1, memory_order_relaxed);
  data[1] = 11;
  atomic_thread_fence(memory_order_acq_rel);
  atomic_store_explicit(&flag[1], 1, memory_order_relaxed);
  data[2] = 12;
  atomic_thread_fence(memory_order_seq_cst);
  atomic_store_explicit(&flag[2], 1, memory_order_relaxed);
  return 0;
}

static void *reader(void *a) {
  (void)a;
  if (atomic_load_explicit(&flag[0], memory_order_relaxed)) {
    atomic_thread_fence(memory_order_acquire);
    assert(data[0] == 10);
  }
  if (atomic_load_explicit(&flag[1], memory_order_relaxed)) {
    atomic_thread_fence(RD);
    assert(data[1] == 11);
  }
  if (atomic_load_explicit(&flag[2], memory_order_relaxed)) {
    atomic_thread_fence(memory_order_seq_cst);
    assert(data[2] == 12);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
