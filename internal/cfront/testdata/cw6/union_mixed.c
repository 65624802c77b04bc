// A 64-bit word and its bytes in a union: a writer thread fills the
// word's low byte and high byte with plain 8-bit stores, publishes with
// a release store of a flag, and the reader reads the whole 64-bit word
// after an acquire load: it sees both bytes (little-endian: 0x...05 at
// bit 0, 0x09 at bit 56). A second union holds an atomic 32-bit
// counter that both threads increment, read back by main as two 16-bit
// halves after the joins. PASS natively (no access tears: the mixed
// accesses are ordered by the flag and the joins). Musket: PASS under
// aarch64; UNSUPPORTED under the other models, by design: the atomic
// increment of a word whose halves are also read separately is an RMW
// over parts, which only AArch64's model gives a meaning.
// -DBUG: the reader reads the word without waiting for the flag: it may
// see only one byte written. RACE under rc11 and imm; under sc and the
// targets the failing execution tears the 64-bit read (a mixed-size
// question these models leave open: no verdict, UNSUPPORTED) except on
// aarch64, whose model answers it (FAIL).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
static union {
  uint64_t word;
  uint8_t byte[8];
} u;
static union {
  _Atomic uint32_t count;
  uint16_t half[2];
} c;
static atomic_int ready;
static void *writer(void *arg) {
  (void)arg;
  u.byte[0] = 5;
  u.byte[7] = 9;
  atomic_store_explicit(&ready, 1, memory_order_release);
  atomic_fetch_add(&c.count, 0x10001);
  return NULL;
}
static void *reader(void *arg) {
  (void)arg;
#ifndef BUG
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    ;
#endif
  uint64_t w = u.word;
  assert(w == 0 || w == 0x0900000000000005ull);
  atomic_fetch_add(&c.count, 0x20002);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(c.half[0] == 3 && c.half[1] == 3);
  return 0;
}
