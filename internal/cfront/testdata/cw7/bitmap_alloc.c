// A slot allocator over an atomic bitmap: a thread finds the lowest
// free bit of the complement with __builtin_ctz and claims it with
// atomic_fetch_or; if the bit was already set it retries (three tries: two other threads can beat it at most twice).
// Three threads each claim a slot and write their id into the slot's
// plain array entry; main checks that the slots are distinct and filled.
// Default: PASS under every model.
// -DBUG: the claim is a load and a separate store of the new mask (not
// one read-modify-write): two threads can claim the same slot: the
// slot's entry is written by both (RACE under rc11 and imm) and main
// finds a slot whose owner is the other thread (FAIL under the others).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define NSLOT 4
static atomic_uint bitmap;
static int owner[NSLOT];
static int got[3];

static int claim(void) {
  for (int tries = 0; tries < 3; tries++) /* enough: two others can win at most twice */ {
    unsigned m = atomic_load_explicit(&bitmap, memory_order_relaxed);
    if (m == (1u << NSLOT) - 1)
      return -1;
    int bit = __builtin_ctz(~m);
#ifdef BUG
    atomic_store_explicit(&bitmap, m | (1u << bit), memory_order_relaxed);
    return bit;
#else
    if (!(atomic_fetch_or_explicit(&bitmap, 1u << bit, memory_order_acq_rel) & (1u << bit)))
      return bit;
#endif
  }
  return -1;
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  int s = claim();
  if (s >= 0)
    owner[s] = id;
  got[id - 1] = s;
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, (void *)(i + 1));
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  unsigned m = atomic_load(&bitmap);
  for (int i = 0; i < 3; i++) {
    assert(got[i] >= 0 && (m & (1u << got[i])));
    assert(owner[got[i]] == i + 1); /* nobody else wrote my slot */
  }
  return 0;
}
