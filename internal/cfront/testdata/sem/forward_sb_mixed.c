// Store buffering with forwarding over mixed sizes: each thread writes
// the high half of its word and reads the whole word back (forwarded from
// its own store: 0x10000), then the other thread's word. Under x86-TSO
// and weaker models both can read the other's word as 0; under SC they
// cannot. The assertion says they cannot: it fails on every target but SC.
#include <assert.h>
#include <pthread.h>

union word {
  volatile int whole;
  volatile short half[2];
} x, y;
int a1, a2, b1, b2;

void *t0(void *p) {
  x.half[1] = 1;
  a1 = x.whole;
  a2 = y.whole;
  return 0;
}

void *t1(void *p) {
  y.half[1] = 1;
  b1 = y.whole;
  b2 = x.whole;
  return 0;
}

int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  assert(a1 == 0x10000 && b1 == 0x10000);
  assert(!(a2 == 0 && b2 == 0));
  return 0;
}
