// Bounded recursion: a recursive sum a thread computes, unrolled to
// -bound (depth 4 needs -bound 4; less says BOUND).
#include <assert.h>
#include <pthread.h>

volatile int n = 3;
int out;

int sum(int k) { return k == 0 ? 0 : k + sum(k - 1); }

void *t(void *p) {
  out = sum(n);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(out == 6);
  return 0;
}
