/* atomic_t, cmpxchg and the smp_* barriers over GCC's __atomic builtins. */
#pragma once
#include "compiler.h"

typedef struct { int counter; } atomic_t;
#define ATOMIC_INIT(i) { (i) }

static inline int atomic_read(const atomic_t *v) { return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }
static inline void atomic_set(atomic_t *v, int i) { __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }
static inline int atomic_add_return(int i, atomic_t *v) { return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }
static inline int atomic_fetch_add_relaxed(int i, atomic_t *v) { return __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }
#define atomic_inc_return(v) atomic_add_return(1, (v))

/* cmpxchg: a statement expression returning the old value. */
#define cmpxchg(ptr, o, n) ({                                              \
    __typeof__(*(ptr)) __old = (o);                                        \
    __atomic_compare_exchange_n((ptr), &__old, (n), 0, __ATOMIC_SEQ_CST,   \
                                __ATOMIC_SEQ_CST);                         \
    __old;                                                                 \
})

#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#if CONFIG_SMP_ACQ
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#else
/* A broken port: the acquire became a plain READ_ONCE. */
#define smp_load_acquire(p) READ_ONCE(*(p))
#endif
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
