// Linux-kernel style with the program's own macros (no musket/lkmm.h):
// atomic_t with atomic_read/atomic_set/atomic_inc/atomic_dec_and_test/
// atomic_cmpxchg over __atomic builtins, WRITE_ONCE/READ_ONCE over
// volatile casts, smp_store_release/smp_load_acquire, a spinlock_t
// built on cmpxchg, likely()/unlikely() over __builtin_expect. An object
// with a reference count is shared by two users; the last one to drop
// its reference (atomic_dec_and_test, fully ordered) tears it down and
// checks every user's update. PASS under sc and the targets. Under rc11
// and imm it is a RACE, rightly: spin_lock's READ_ONCE is a volatile
// (plain) read of a word that cmpxchg writes atomically, a data race in
// C11 (the kernel's own model allows it; C11's does not).
// -DBUG: the drop is a relaxed decrement followed by a plain test: the
// last user may not see the other's update (RACE under rc11 and imm,
// as before;
// FAIL on aarch64, PASS under sc and x86).
#include <pthread.h>
#include <assert.h>
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
typedef struct {
  int counter;
} atomic_t;
#define ATOMIC_INIT(i) {(i)}
static inline int atomic_read(const atomic_t *v) { return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }
static inline void atomic_set(atomic_t *v, int i) { __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }
static inline void atomic_inc(atomic_t *v) { __atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED); }
static inline int atomic_dec_and_test(atomic_t *v) {
#ifdef BUG
  __atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED);
  return atomic_read(v) == 0;
#else
  return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST) == 0;
#endif
}
static inline int atomic_cmpxchg(atomic_t *v, int old, int new) {
  __atomic_compare_exchange_n(&v->counter, &old, new, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return old;
}
typedef struct {
  atomic_t val;
} spinlock_t;
static inline void spin_lock(spinlock_t *l) {
  while (unlikely(atomic_cmpxchg(&l->val, 0, 1) != 0))
    while (READ_ONCE(l->val.counter))
      ;
}
static inline void spin_unlock(spinlock_t *l) { smp_store_release(&l->val.counter, 0); }
struct obj {
  atomic_t ref;
  spinlock_t lock;
  int users_seen;
  int field[2];
};
static struct obj o = {.ref = ATOMIC_INIT(1)};
static int torn_down, published;
static void put(struct obj *p) {
  if (atomic_dec_and_test(&p->ref)) {
    assert(p->field[0] == 1 && p->field[1] == 2);
    WRITE_ONCE(torn_down, 1);
  }
}
static void *user(void *arg) {
  int id = (int)(long)arg;
  o.field[id] = id + 1;
  spin_lock(&o.lock);
  o.users_seen++;
  spin_unlock(&o.lock);
  put(&o);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  atomic_inc(&o.ref);
  atomic_inc(&o.ref);
  smp_store_release(&published, 1);
  pthread_create(&a, NULL, user, (void *)0L);
  pthread_create(&b, NULL, user, (void *)1L);
  put(&o);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(likely(smp_load_acquire(&published) == 1));
  assert(READ_ONCE(torn_down) == 1 && o.users_seen == 2);
  return 0;
}
