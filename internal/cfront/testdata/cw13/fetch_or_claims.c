// Claiming bits of a shared mask with atomic_fetch_or (acq_rel): the
// old value says whether the bit was free, so each bit has one owner;
// the owner then writes the slot the bit guards.
// Default: three threads claim bits (two want the same): PASS under
// every model.
// -D BUG: the claim is a load and a separate or-store: two threads may
// both see the bit free: a race on the slot under rc11 and imm (R),
// FAIL (two owners) under every other model, sc included.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_uint mask;
static int owner[2];
static atomic_int owners[2];

static void *claimer(void *arg) {
  int bit = (int)(long)arg % 2;
  unsigned m = 1u << bit;
#ifdef BUG
  unsigned old = atomic_load_explicit(&mask, memory_order_acquire);
  atomic_store_explicit(&mask, old | m, memory_order_release);
#else
  unsigned old = atomic_fetch_or_explicit(&mask, m, memory_order_acq_rel);
#endif
  if (!(old & m)) {
    owner[bit] = (int)(long)arg + 1;
    assert(atomic_fetch_add_explicit(&owners[bit], 1, memory_order_relaxed) == 0);
  }
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 3; i++)
    pthread_create(&t[i], 0, claimer, (void *)i);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
