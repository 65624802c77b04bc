// A 64-bit counter on 32-bit halves (32-bit ports of ConcurrencyKit,
// liblfds): the writer stores the whole value with one 64-bit atomic
// store, the reader reads the halves with 32-bit atomic loads, hi, lo,
// hi again, until hi is stable. On every target the store is one access
// and the reader never sees it half done: PASS under aarch64 (whose
// model makes an access single-copy atomic). The other models say
// nothing about mixed sizes: the check was a wrong FAIL under sc, rc11,
// x86, power and riscv (the reader saw the new lo with the old hi, a
// torn write), and is now no verdict (UNSUPPORTED). -DBUG (lo then hi,
// no retry): FAIL at line 35 (lo read before the write, hi after).
// The value is put together by an or of disjoint halves, which the SMT
// engine took 25 s to solve before it became a sum (disjointor.go).
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
union ctr { uint64_t v; struct { uint32_t lo, hi; } h; };
union ctr c;
void *writer(void *a) {
  __atomic_store_n(&c.v, 0x100000000ULL, __ATOMIC_SEQ_CST); /* 0xffffffff + 1 */
  return 0;
}
void *reader(void *a) {
  uint32_t hi, lo, hi2;
#ifdef BUG
  lo = __atomic_load_n(&c.h.lo, __ATOMIC_SEQ_CST);
  hi = __atomic_load_n(&c.h.hi, __ATOMIC_SEQ_CST);
#else
  do {
    hi = __atomic_load_n(&c.h.hi, __ATOMIC_SEQ_CST);
    lo = __atomic_load_n(&c.h.lo, __ATOMIC_SEQ_CST);
    hi2 = __atomic_load_n(&c.h.hi, __ATOMIC_SEQ_CST);
  } while (hi != hi2);
#endif
  uint64_t v = ((uint64_t)hi << 32) | lo;
  assert(v == 0xffffffffULL || v == 0x100000000ULL);
  return 0;
}
int main(void) {
  c.v = 0xffffffffULL;
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
