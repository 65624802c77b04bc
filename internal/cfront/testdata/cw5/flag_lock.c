// stdatomic.h's macros and types: an atomic_flag spinlock
// (ATOMIC_FLAG_INIT, test_and_set with acquire, clear with release),
// ATOMIC_VAR_INIT, atomic_init, atomic_is_lock_free, kill_dependency,
// and an atomic_bool done flag; three threads increment a plain counter
// under the flag. PASS under every model.
// -DBUG: the clear is relaxed: the counter's increments race (RACE
// under rc11 and imm) and one can be lost on aarch64 (FAIL); x86 and sc
// PASS.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#ifdef BUG
#define CLEAR_MO memory_order_relaxed
#else
#define CLEAR_MO memory_order_release
#endif
static atomic_flag lk = ATOMIC_FLAG_INIT;
static atomic_int entered = ATOMIC_VAR_INIT(0);
static atomic_bool done[3];
static int counter;
static void *thr(void *arg) {
  int id = (int)(long)arg;
  while (atomic_flag_test_and_set_explicit(&lk, memory_order_acquire))
    ;
  counter++;
  atomic_flag_clear_explicit(&lk, CLEAR_MO);
  atomic_fetch_add_explicit(&entered, kill_dependency(1), memory_order_relaxed);
  atomic_store(&done[id], 1);
  return NULL;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    atomic_init(&done[i], 0);
  assert(atomic_is_lock_free(&entered));
  for (long i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, thr, (void *)i);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  assert(counter == 3 && atomic_load(&entered) == 3);
  assert(atomic_load(&done[0]) && atomic_load(&done[1]) && atomic_load(&done[2]));
  return 0;
}
