/* A ticket lock chosen by the includer (-I inc11): one word holds both
   counters, next in the high 16 bits and owner in the low 16 bits, as
   Linux's arch_spinlock_t on 32-bit words. WORKERS and ROUNDS come from
   -D flags (defaults here). */
#ifndef TLOCK_H
#define TLOCK_H
#include <stdatomic.h>
#include <stdint.h>

#ifndef WORKERS
#define WORKERS 2
#endif
#ifndef ROUNDS
#define ROUNDS 1
#endif

typedef struct { _Atomic uint32_t word; } tlock_t;

static inline void tlock_acquire(tlock_t *l) {
  uint32_t old = atomic_fetch_add_explicit(&l->word, 1u << 16, memory_order_relaxed);
  uint16_t mine = (uint16_t)(old >> 16);
  while ((uint16_t)atomic_load_explicit(&l->word, TLOCK_ACQ) != mine)
    ;
}

static inline void tlock_release(tlock_t *l) {
  atomic_fetch_add_explicit(&l->word, 1, memory_order_release);
}
#endif
