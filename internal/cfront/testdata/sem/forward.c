// Store-to-load forwarding: each thread reads its own store back before
// the other thread's store is visible. Under x86-TSO (and every weaker
// model) both threads can read their own 1 and then 0 from the other's
// variable; under SC they cannot. The assertion says they cannot: it
// fails on every target but SC.
#include <assert.h>
#include <pthread.h>

volatile int x, y;
int a1, a2, b1, b2;

void *t0(void *p) {
  x = 1;
  a1 = x;
  a2 = y;
  return 0;
}

void *t1(void *p) {
  y = 1;
  b1 = y;
  b2 = x;
  return 0;
}

int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  assert(!(a1 == 1 && a2 == 0 && b1 == 1 && b2 == 0));
  return 0;
}
