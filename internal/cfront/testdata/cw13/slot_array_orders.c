// An array of atomic sequence numbers guarding an array of plain slots
// (explicit orders per element): the producer fills slot i, then
// release-stores seq[i]; the consumer acquire-loads seq[i] and reads the
// slot only when it is set.
// Default: PASS under every model.
// -D BUG: the producer's store to seq[1] is relaxed: slot 1 races with
// the consumer's read under rc11 and imm (R); aarch64, power and riscv
// may show the flag before the slot (FAIL); x86 and sc PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 3
static int slot[N];
static atomic_int seq[N];

static void *producer(void *a) {
  (void)a;
  for (int i = 0; i < N; i++) {
    slot[i] = 100 + i;
#ifdef BUG
    atomic_store_explicit(&seq[i], 1, i == 1 ? memory_order_relaxed : memory_order_release);
#else
    atomic_store_explicit(&seq[i], 1, memory_order_release);
#endif
  }
  return 0;
}

static void *consumer(void *a) {
  (void)a;
  for (int i = N - 1; i >= 0; i--)
    if (atomic_load_explicit(&seq[i], memory_order_acquire))
      assert(slot[i] == 100 + i);
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
