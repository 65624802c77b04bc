// The bit intrinsics: popcount, count of leading and trailing zeros, byte
// swap, on values a thread wrote.
#include <assert.h>
#include <pthread.h>

volatile unsigned x;
volatile unsigned long y;

void *t(void *p) {
  x = 0x00f0f000u;
  y = 0x8000000000000100ul;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  unsigned v = x;
  unsigned long w = y;
  assert(__builtin_popcount(v) == 8);
  assert(__builtin_ctz(v) == 12 && __builtin_clz(v) == 8);
  assert(__builtin_bswap32(v) == 0x00f0f000u);
  assert(__builtin_ctzl(w) == 8 && __builtin_clzl(w) == 0);
  assert(__builtin_bswap64(w) == 0x0001000000000080ul);
  assert(__builtin_clz(1u) == 31 && __builtin_bswap32(0x11223344u) == 0x44332211u);
  return 0;
}
