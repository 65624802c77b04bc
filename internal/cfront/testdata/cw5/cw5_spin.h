// A test-and-test-and-set spinlock in a local header, included by
// hdr_spin.c. UNLOCK_MO (from inc/cw5cfg.h, or -D) is the unlock's order.
#ifndef CW5_SPIN_H
#define CW5_SPIN_H
#include <stdatomic.h>
#include <cw5cfg.h>
typedef struct {
  atomic_int held;
} spin_t;
static inline void spin_lock(spin_t *l) {
  for (;;) {
    while (atomic_load_explicit(&l->held, memory_order_relaxed))
      ;
    if (!atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
      return;
  }
}
static inline void spin_unlock(spin_t *l) { atomic_store_explicit(&l->held, 0, UNLOCK_MO); }
#endif
