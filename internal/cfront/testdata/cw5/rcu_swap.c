// RCU-style replacement of a configuration record: the reader marks
// itself inside a read-side section, loads the current record through
// rcu_dereference (an acquire load) and checks it; the updater publishes
// a new record with rcu_assign_pointer (a release store), waits for a
// grace period (until no reader is inside its section), then poisons
// the old record, as a free would. PASS under every model: seq_cst fences
// after the reader's flag store and before the updater's flag load make
// the store-buffering pair (flag, pointer) safe, and the release/acquire
// flag orders the reader's reads before the poisoning.
// -DBUG: the updater does not wait for the grace period: the reader can
// see the poison (FAIL under sc and the targets; the poisoning races
// with the reader's read under rc11 and imm: RACE).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
struct conf {
  int a, b;
};
static struct conf initial = {1, 1};
static _Atomic(struct conf *) cur = &initial;
static atomic_int in_reader;
#define rcu_dereference(p) atomic_load_explicit(&(p), memory_order_acquire)
#define rcu_assign_pointer(p, v) atomic_store_explicit(&(p), (v), memory_order_release)
static void rcu_read_lock(void) {
  atomic_store_explicit(&in_reader, 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
}
static void rcu_read_unlock(void) { atomic_store_explicit(&in_reader, 0, memory_order_release); }
static void synchronize_rcu(void) {
#ifndef BUG
  atomic_thread_fence(memory_order_seq_cst);
  while (atomic_load_explicit(&in_reader, memory_order_acquire))
    ;
#endif
}
static void *reader(void *arg) {
  rcu_read_lock();
  struct conf *c = rcu_dereference(cur);
  int a = c->a, b = c->b;
  rcu_read_unlock();
  assert(a == b && a > 0);
  return arg;
}
static void *updater(void *arg) {
  struct conf *n = malloc(sizeof *n);
  n->a = 2;
  n->b = 2;
  struct conf *old = atomic_load_explicit(&cur, memory_order_relaxed);
  rcu_assign_pointer(cur, n);
  synchronize_rcu();
  old->a = -1;
  old->b = -1;
  return arg;
}
int main(void) {
  pthread_t r, u;
  pthread_create(&r, NULL, reader, NULL);
  pthread_create(&u, NULL, updater, NULL);
  pthread_join(r, NULL);
  pthread_join(u, NULL);
  return 0;
}
