// atomic_signal_fence (C11 7.17.4p5) orders a thread only with a signal
// handler run in that same thread: between threads it is no fence (it
// compiles to no instruction). Message passing with relaxed atomics.
// Default: atomic_thread_fence(seq_cst) on both sides: PASS under every
// model.
// -D BUG: atomic_signal_fence(seq_cst) instead: no synchronisation: the
// plain payload races under rc11 and imm (R); aarch64, power and riscv
// may read the flag before the payload (FAIL); x86 and sc PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define FENCE() atomic_signal_fence(memory_order_seq_cst)
#else
#define FENCE() atomic_thread_fence(memory_order_seq_cst)
#endif

static int payload;
static atomic_int ready;

static void *producer(void *a) {
  (void)a;
  payload = 7;
  FENCE();
  atomic_store_explicit(&ready, 1, memory_order_relaxed);
  return 0;
}

static void *consumer(void *a) {
  (void)a;
  if (atomic_load_explicit(&ready, memory_order_relaxed)) {
    FENCE();
    assert(payload == 7);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, 0);
  pthread_create(&b, 0, consumer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
