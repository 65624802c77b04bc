// SV-COMP's blocking idiom: __VERIFIER_assume(cond) as a wait (a path
// where cond is false is cut, so the thread proceeds only once cond
// holds). The consumer assumes the producer's release flag, then reads
// the plain payload.
// Default: the flag is an acquire/release atomic: PASS under every
// model.
// -D BUG: the flag is stored relaxed: the payload races under rc11 and
// imm (R); aarch64, power and riscv may see the flag before the payload
// (FAIL); x86 and sc PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

extern void __VERIFIER_assume(int);

#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

static int payload;
static atomic_int flag;

static void *producer(void *a) {
  (void)a;
  payload = 3;
  atomic_store_explicit(&flag, 1, PUB);
  return 0;
}

static void *consumer(void *a) {
  (void)a;
  __VERIFIER_assume(atomic_load_explicit(&flag, memory_order_acquire) == 1);
  assert(payload == 3);
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
