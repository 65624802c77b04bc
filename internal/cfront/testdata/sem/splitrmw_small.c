// Atomic read-modify-writes of a whole 64-bit word whose 32-bit halves
// other accesses touch separately: a worker bumps the high half by an
// atomic add on the whole word while main takes and releases the low
// half (a lock) by halves; then main adds 1 to a low half of all ones,
// which carries into the high half, and exchanges the whole word.
#include <assert.h>
#include <pthread.h>

union word {
  long whole;
  struct {
    int lo;
    int hi;
  };
} w = {.hi = 5};

void *bump(void *p) {
  __atomic_fetch_add(&w.whole, 1L << 32, __ATOMIC_RELAXED);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, bump, 0);
  __atomic_store_n(&w.lo, -1, __ATOMIC_RELAXED);
  pthread_join(h, 0);
  long v = __atomic_fetch_add(&w.whole, 1, __ATOMIC_SEQ_CST);
  assert(v == 0x00000006ffffffffL);
  v = __atomic_exchange_n(&w.whole, 0, __ATOMIC_SEQ_CST);
  assert(v == 7L << 32);
  assert(w.lo == 0 && w.hi == 0);
  return 0;
}
