// The exchange slot of an elimination back-off stack (Hendler, Shavit,
// Yerushalmi): a push that lost its CAS on the stack's top offers its
// value in a slot (EMPTY -> WAITING with the value); a pop that lost too
// takes the offer with a CAS (WAITING -> BUSY) and the pusher, seeing
// BUSY, withdraws (BUSY -> EMPTY). Here one pusher offers and one popper
// takes, without the stack itself.
// Default: the value is written before the release CAS that offers it,
// the popper's CAS acquires: PASS under every model.
// -D BUG: the offer's CAS is relaxed: the popper may take the offer and
// read the value before it was written: a race under rc11/imm; sc and
// x86 PASS; aarch64, power, riscv FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define OFFER memory_order_relaxed
#else
#define OFFER memory_order_release
#endif

enum { EMPTY, WAITING, BUSY };

static atomic_int state;
static int value;
static atomic_int taken;

static void *pusher(void *arg) {
  (void)arg;
  int s = EMPTY;
  value = 42;
  if (atomic_compare_exchange_strong_explicit(&state, &s, WAITING, OFFER, memory_order_relaxed)) {
    // Wait for a taker, or withdraw the offer.
    s = WAITING;
    if (!atomic_compare_exchange_strong_explicit(&state, &s, EMPTY, memory_order_acq_rel, memory_order_acquire)) {
      // s == BUSY: the popper has it.
      atomic_store_explicit(&state, EMPTY, memory_order_release);
    }
  }
  return 0;
}

static void *popper(void *arg) {
  (void)arg;
  int s = WAITING;
  if (atomic_compare_exchange_strong_explicit(&state, &s, BUSY, memory_order_acquire, memory_order_relaxed)) {
    assert(value == 42);
    atomic_store(&taken, 1);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, pusher, 0);
  pthread_create(&b, 0, popper, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
