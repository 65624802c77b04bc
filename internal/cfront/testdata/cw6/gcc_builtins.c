// GCC-style atomics only (no stdatomic.h), as older lock-free libraries
// write them: a __sync_lock_test_and_set / __sync_lock_release lock,
// __sync_fetch_and_add and __sync_val/bool_compare_and_swap counters,
// __atomic_load_n/__atomic_store_n with __ATOMIC_* orders,
// __atomic_add_fetch, __atomic_exchange_n, __atomic_compare_exchange_n,
// __atomic_test_and_set/__atomic_clear and __atomic_thread_fence.
// PASS everywhere.
// -DBUG: the __atomic lock's clear is __ATOMIC_RELAXED: the counter it
// guards races (RACE under rc11 and imm) and an increment can be lost
// on aarch64 (FAIL); sc and x86 PASS.
#include <pthread.h>
#include <assert.h>
#include <stdbool.h>
#ifdef BUG
#define CLR __ATOMIC_RELAXED
#else
#define CLR __ATOMIC_RELEASE
#endif
static volatile int sync_lock;
static bool tas_lock;
static int guarded_a, guarded_b;
static long hits;
static int maxv;
static int *last;
static int slots[2];
static int flag;
static void *worker(void *arg) {
  int id = (int)(long)arg;
  while (__sync_lock_test_and_set(&sync_lock, 1))
    ;
  guarded_a++;
  __sync_lock_release(&sync_lock);
  while (__atomic_test_and_set(&tas_lock, __ATOMIC_ACQUIRE))
    ;
  guarded_b++;
  __atomic_clear(&tas_lock, CLR);
  __sync_fetch_and_add(&hits, 1);
  __atomic_add_fetch(&hits, 10, __ATOMIC_SEQ_CST);
  int cur = __atomic_load_n(&maxv, __ATOMIC_RELAXED);
  while (cur < id + 1 && !__atomic_compare_exchange_n(&maxv, &cur, id + 1, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
  __sync_bool_compare_and_swap(&slots[id], 0, id + 5);
  int prev = __sync_val_compare_and_swap(&slots[id], id + 5, id + 6);
  assert(prev == id + 5);
  __atomic_exchange_n(&last, &slots[id], __ATOMIC_ACQ_REL);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
  return NULL;
}
int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(guarded_a == 2);
  assert(guarded_b == 2);
  assert(__atomic_load_n(&hits, __ATOMIC_ACQUIRE) == 22);
  assert(maxv == 2 && slots[0] == 5 + 1 && slots[1] == 7);
  assert(last == &slots[0] || last == &slots[1]);
  assert(__atomic_load_n(&flag, __ATOMIC_ACQUIRE) == 1);
  return 0;
}
