// compare_exchange_strong_explicit with distinct failure orders. A
// "claim" CAS (acq_rel on success, acquire on failure) on an owner word:
// the thread that loses reads the winner's owner value on failure, and
// that acquire read must make the winner's published data visible.
// PASS everywhere.
// -DBUG: the orders are release and relaxed: the loser's failed CAS reads the
// winner's write without synchronising, so its read of the data races
// (RACE under rc11 and imm) and may see 0 on aarch64 (FAIL); sc and x86
// PASS.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#ifdef BUG
#define OK_MO memory_order_release
#define FAIL_MO memory_order_relaxed
#else
#define OK_MO memory_order_acq_rel
#define FAIL_MO memory_order_acquire
#endif
static int data[2];
static atomic_int owner; /* 0 free, else id+1 of a thread that published */
static void *contender(void *arg) {
  int id = (int)(long)arg;
  data[id] = 10 + id;
  int expected = 0;
  if (atomic_compare_exchange_strong_explicit(&owner, &expected, id + 1, OK_MO, FAIL_MO))
    return NULL;
  /* lost: expected holds the winner's id + 1 */
  assert(expected == 2 - id);
  assert(data[1 - id] == 11 - id);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, contender, (void *)0L);
  pthread_create(&b, NULL, contender, (void *)1L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(atomic_load(&owner) != 0);
  return 0;
}
