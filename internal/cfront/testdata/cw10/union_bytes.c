// A union of a 32-bit word and its 4 bytes: a writer fills the word with
// one store and publishes it with a release; the reader acquires and
// reads the bytes one by one (little-endian: byte 0 is the low one), and
// builds the word again from them. Default: PASS everywhere. -D BUG:
// the writer fills the bytes one by one and the reader reads the word
// whole, published relaxed: RACE under rc11/imm; sc and x86: PASS;
// aarch64, power, riscv: FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

union word {
  uint32_t w;
  uint8_t b[4];
};

static union word u;
static atomic_int ready;

static void *writer(void *arg) {
  (void)arg;
#ifdef BUG
  u.b[0] = 0x44;
  u.b[1] = 0x33;
  u.b[2] = 0x22;
  u.b[3] = 0x11;
  atomic_store_explicit(&ready, 1, memory_order_relaxed);
#else
  u.w = 0x11223344u;
  atomic_store_explicit(&ready, 1, memory_order_release);
#endif
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  if (atomic_load_explicit(&ready, memory_order_acquire)) {
#ifdef BUG
    assert(u.w == 0x11223344u);
#else
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
      v = v << 8 | u.b[i];
    assert(u.b[0] == 0x44 && v == 0x11223344u);
#endif
  }
  pthread_join(t, 0);
  return 0;
}
