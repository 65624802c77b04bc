// A Chase-Lev work-stealing deque of two slots (Le, Pop, Cohen, Zappa
// Nardelli, "Correct and Efficient Work-Stealing for Weak Memory Models",
// PPoPP 2013, written anew): the owner pushes two tasks then takes one;
// a thief steals twice. take decrements bottom, fences (seq_cst), reads
// top; steal reads top, fences (seq_cst), reads bottom, and both race by
// CAS on top for the last task. No task is taken twice and none is lost.
// PASS everywhere. -DBUG: take has no fence: after the thief's first
// steal the owner can read the old top and take task 2 without a CAS
// while the thief's second steal reads the old bottom and takes it too
// (store buffering on bottom and top): FAIL under rc11, imm,
// x86, aarch64, power, riscv; PASS under sc.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_long top, bottom;
atomic_int buf[2];
int got[3];
static void push(int v) {
  long b = atomic_load_explicit(&bottom, memory_order_relaxed);
  atomic_store_explicit(&buf[b & 1], v, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
}
static int take(void) {
  long b = atomic_load_explicit(&bottom, memory_order_relaxed) - 1;
  atomic_store_explicit(&bottom, b, memory_order_relaxed);
#ifndef BUG
  atomic_thread_fence(memory_order_seq_cst);
#endif
  long t = atomic_load_explicit(&top, memory_order_relaxed);
  int x = 0;
  if (t <= b) {
    x = atomic_load_explicit(&buf[b & 1], memory_order_relaxed);
    if (t == b) {
      if (!atomic_compare_exchange_strong_explicit(&top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
        x = 0;
      atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
    }
  } else {
    atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
  }
  return x;
}
static int steal(void) {
  long t = atomic_load_explicit(&top, memory_order_acquire);
  atomic_thread_fence(memory_order_seq_cst);
  long b = atomic_load_explicit(&bottom, memory_order_acquire);
  if (t < b) {
    int x = atomic_load_explicit(&buf[t & 1], memory_order_relaxed);
    if (!atomic_compare_exchange_strong_explicit(&top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
      return 0;
    return x;
  }
  return 0;
}
atomic_int taken[3];
static void record(int x) {
  if (x)
    atomic_fetch_add_explicit(&taken[x], 1, memory_order_relaxed);
}
void *owner(void *a) {
  push(1);
  push(2);
  record(take());
  return NULL;
}
void *thief(void *a) {
  record(steal());
  record(steal());
  return NULL;
}
int main(void) {
  pthread_t o, t;
  pthread_create(&o, NULL, owner, NULL);
  pthread_create(&t, NULL, thief, NULL);
  pthread_join(o, NULL);
  pthread_join(t, NULL);
  for (long i = atomic_load(&top); i < atomic_load(&bottom); i++)
    record(atomic_load(&buf[i & 1]));
  for (int x = 1; x <= 2; x++)
    assert(atomic_load(&taken[x]) == 1);
  return 0;
}
