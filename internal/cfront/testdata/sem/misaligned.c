// An int read over the middle of a struct of shorts takes the bytes of
// two of them: b and c, c in the high half.
#include <assert.h>
#include <pthread.h>

struct S {
  short a, b, c, d;
} s;

void *t(void *p) {
  s.b = 2;
  s.c = 3;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  int v = *(volatile int *)&s.b;
  assert(v == 2); // fails: v is 2 + (3 << 16)
  return 0;
}
