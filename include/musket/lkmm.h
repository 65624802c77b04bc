/*
 * lkmm.h: Linux-kernel primitives for programs checked by Musket under the
 * Linux-kernel memory model (Alglave, Maranget, McKenney, Parri, Stern,
 * "Frightening Small Children and Disconcerting Grown-ups: Concurrency in
 * the Linux Kernel", ASPLOS 2018). Each primitive is a call of a function
 * that Musket's C front-end turns into the events the model's .cat files
 * expect (tags ONCE, ACQUIRE, RELEASE, MB, Rmb, Wmb, ...; lock events
 * LKR, LKW, UL; RCU fences), as herd7 does for C litmus tests.
 *
 * Values are handled as long: Musket models integers and pointers.
 * Check with: musket check -model linux-kernel.cat prog.c
 */
#ifndef MUSKET_LKMM_H
#define MUSKET_LKMM_H

/* Kinds of accesses and fences (the tags of the events). */
enum {
	__MUSKET_ONCE, __MUSKET_ACQUIRE, __MUSKET_RELEASE, __MUSKET_MB,
	__MUSKET_RMB, __MUSKET_WMB, __MUSKET_BARRIER,
	__MUSKET_BEFORE_ATOMIC, __MUSKET_AFTER_ATOMIC, __MUSKET_AFTER_SPINLOCK,
	__MUSKET_AFTER_UNLOCK_LOCK, __MUSKET_RCU_LOCK, __MUSKET_RCU_UNLOCK,
	__MUSKET_SYNC_RCU, __MUSKET_NORETURN
};
/* Operations of the atomic_t primitives. */
enum { __MUSKET_ADD, __MUSKET_SUB, __MUSKET_AND, __MUSKET_OR, __MUSKET_XOR, __MUSKET_ANDNOT };
/* What an atomic operation returns. */
enum { __MUSKET_VOID, __MUSKET_NEW, __MUSKET_OLD };

long __musket_lkmm_load(const volatile void *p, int kind);
void __musket_lkmm_store(volatile void *p, long v, int kind);
void __musket_lkmm_fence(int kind);
long __musket_lkmm_xchg(volatile void *p, long v, int kind);
long __musket_lkmm_cmpxchg(volatile void *p, long old, long new_, int kind);
long __musket_lkmm_atomic_op(volatile void *p, int op, long v, int kind, int ret);
void __musket_lkmm_lock(volatile void *p);
void __musket_lkmm_unlock(volatile void *p);
int __musket_lkmm_trylock(volatile void *p);

#define READ_ONCE(x) ((__typeof__(x))__musket_lkmm_load(&(x), __MUSKET_ONCE))
#define WRITE_ONCE(x, v) __musket_lkmm_store(&(x), (long)(v), __MUSKET_ONCE)
#define smp_load_acquire(p) ((__typeof__(*(p)))__musket_lkmm_load((p), __MUSKET_ACQUIRE))
#define smp_store_release(p, v) __musket_lkmm_store((p), (long)(v), __MUSKET_RELEASE)
#define rcu_dereference(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) __musket_lkmm_store(&(p), (long)(v), __MUSKET_RELEASE)

#define smp_mb() __musket_lkmm_fence(__MUSKET_MB)
#define smp_rmb() __musket_lkmm_fence(__MUSKET_RMB)
#define smp_wmb() __musket_lkmm_fence(__MUSKET_WMB)
#define barrier() __musket_lkmm_fence(__MUSKET_BARRIER)
#define cpu_relax() ((void)0)
#define smp_mb__before_atomic() __musket_lkmm_fence(__MUSKET_BEFORE_ATOMIC)
#define smp_mb__after_atomic() __musket_lkmm_fence(__MUSKET_AFTER_ATOMIC)
#define smp_mb__after_spinlock() __musket_lkmm_fence(__MUSKET_AFTER_SPINLOCK)
#define smp_mb__after_unlock_lock() __musket_lkmm_fence(__MUSKET_AFTER_UNLOCK_LOCK)

#define xchg(p, v) ((__typeof__(*(p)))__musket_lkmm_xchg((p), (long)(v), __MUSKET_MB))
#define xchg_relaxed(p, v) ((__typeof__(*(p)))__musket_lkmm_xchg((p), (long)(v), __MUSKET_ONCE))
#define xchg_acquire(p, v) ((__typeof__(*(p)))__musket_lkmm_xchg((p), (long)(v), __MUSKET_ACQUIRE))
#define xchg_release(p, v) ((__typeof__(*(p)))__musket_lkmm_xchg((p), (long)(v), __MUSKET_RELEASE))
#define cmpxchg(p, o, n) ((__typeof__(*(p)))__musket_lkmm_cmpxchg((p), (long)(o), (long)(n), __MUSKET_MB))
#define cmpxchg_relaxed(p, o, n) ((__typeof__(*(p)))__musket_lkmm_cmpxchg((p), (long)(o), (long)(n), __MUSKET_ONCE))
#define cmpxchg_acquire(p, o, n) ((__typeof__(*(p)))__musket_lkmm_cmpxchg((p), (long)(o), (long)(n), __MUSKET_ACQUIRE))
#define cmpxchg_release(p, o, n) ((__typeof__(*(p)))__musket_lkmm_cmpxchg((p), (long)(o), (long)(n), __MUSKET_RELEASE))

typedef struct { int counter; } atomic_t;
#define ATOMIC_INIT(i) { (i) }
#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))
#define atomic_read_acquire(v) smp_load_acquire(&(v)->counter)
#define atomic_set_release(v, i) smp_store_release(&(v)->counter, (i))
#define __MUSKET_AOP(v, op, i, kind, ret) ((int)__musket_lkmm_atomic_op(&(v)->counter, (op), (long)(i), (kind), (ret)))
#define atomic_add(i, v) ((void)__MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_NORETURN, __MUSKET_VOID))
#define atomic_sub(i, v) ((void)__MUSKET_AOP(v, __MUSKET_SUB, i, __MUSKET_NORETURN, __MUSKET_VOID))
#define atomic_inc(v) atomic_add(1, v)
#define atomic_dec(v) atomic_sub(1, v)
#define atomic_and(i, v) ((void)__MUSKET_AOP(v, __MUSKET_AND, i, __MUSKET_NORETURN, __MUSKET_VOID))
#define atomic_or(i, v) ((void)__MUSKET_AOP(v, __MUSKET_OR, i, __MUSKET_NORETURN, __MUSKET_VOID))
#define atomic_xor(i, v) ((void)__MUSKET_AOP(v, __MUSKET_XOR, i, __MUSKET_NORETURN, __MUSKET_VOID))
#define atomic_andnot(i, v) ((void)__MUSKET_AOP(v, __MUSKET_ANDNOT, i, __MUSKET_NORETURN, __MUSKET_VOID))
#define atomic_add_return(i, v) __MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_MB, __MUSKET_NEW)
#define atomic_add_return_relaxed(i, v) __MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_ONCE, __MUSKET_NEW)
#define atomic_add_return_acquire(i, v) __MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_ACQUIRE, __MUSKET_NEW)
#define atomic_add_return_release(i, v) __MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_RELEASE, __MUSKET_NEW)
#define atomic_sub_return(i, v) __MUSKET_AOP(v, __MUSKET_SUB, i, __MUSKET_MB, __MUSKET_NEW)
#define atomic_inc_return(v) atomic_add_return(1, v)
#define atomic_dec_return(v) atomic_sub_return(1, v)
#define atomic_fetch_add(i, v) __MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_MB, __MUSKET_OLD)
#define atomic_fetch_add_relaxed(i, v) __MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_ONCE, __MUSKET_OLD)
#define atomic_fetch_add_acquire(i, v) __MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_ACQUIRE, __MUSKET_OLD)
#define atomic_fetch_add_release(i, v) __MUSKET_AOP(v, __MUSKET_ADD, i, __MUSKET_RELEASE, __MUSKET_OLD)
#define atomic_fetch_sub(i, v) __MUSKET_AOP(v, __MUSKET_SUB, i, __MUSKET_MB, __MUSKET_OLD)
#define atomic_fetch_inc(v) atomic_fetch_add(1, v)
#define atomic_fetch_dec(v) atomic_fetch_sub(1, v)
#define atomic_xchg(v, i) ((int)__musket_lkmm_xchg(&(v)->counter, (long)(i), __MUSKET_MB))
#define atomic_cmpxchg(v, o, n) ((int)__musket_lkmm_cmpxchg(&(v)->counter, (long)(o), (long)(n), __MUSKET_MB))
#define atomic_cmpxchg_relaxed(v, o, n) ((int)__musket_lkmm_cmpxchg(&(v)->counter, (long)(o), (long)(n), __MUSKET_ONCE))
#define atomic_cmpxchg_acquire(v, o, n) ((int)__musket_lkmm_cmpxchg(&(v)->counter, (long)(o), (long)(n), __MUSKET_ACQUIRE))
#define atomic_cmpxchg_release(v, o, n) ((int)__musket_lkmm_cmpxchg(&(v)->counter, (long)(o), (long)(n), __MUSKET_RELEASE))

typedef struct { int lock; } spinlock_t;
#define DEFINE_SPINLOCK(x) spinlock_t x
#define spin_lock_init(l) ((void)0)
#define spin_lock(l) __musket_lkmm_lock(l)
#define spin_unlock(l) __musket_lkmm_unlock(l)
#define spin_trylock(l) __musket_lkmm_trylock(l)

#define rcu_read_lock() __musket_lkmm_fence(__MUSKET_RCU_LOCK)
#define rcu_read_unlock() __musket_lkmm_fence(__MUSKET_RCU_UNLOCK)
#define synchronize_rcu() __musket_lkmm_fence(__MUSKET_SYNC_RCU)

#endif
