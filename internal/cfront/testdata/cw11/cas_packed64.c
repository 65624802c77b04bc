// A (value, version) pair packed in one 64-bit word and updated by a
// compare-and-swap loop, as lock-free code avoids ABA: a union of a
// struct of two uint32_t and a uint64_t; the loop reads the word, builds
// the new pair, and retries on failure. Two threads add 1 and 2 to the
// value; each success bumps the version.
// Default: PASS under every model (value 3, version 2).
// -D BUG: the update is a plain atomic load and store of the word: an
// update may be lost: FAIL under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

union pair {
  struct { uint32_t value, version; } s;
  uint64_t word;
};
static _Atomic uint64_t shared;

static void add(uint32_t d) {
  union pair old, upd;
  old.word = atomic_load_explicit(&shared, memory_order_relaxed);
  do {
    upd.s.value = old.s.value + d;
    upd.s.version = old.s.version + 1;
#ifdef BUG
    atomic_store(&shared, upd.word);
    break;
#endif
  } while (!atomic_compare_exchange_weak(&shared, &old.word, upd.word));
}

static void *w(void *arg) { add((uint32_t)(uintptr_t)arg); return 0; }

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, (void *)1);
  pthread_create(&b, 0, w, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  union pair p;
  p.word = atomic_load(&shared);
  assert(p.s.value == 3 && p.s.version == 2);
  return 0;
}
