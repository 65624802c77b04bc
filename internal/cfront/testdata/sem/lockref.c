// A lock word read as a whole and written by halves (as Linux's lockref
// does): the count in the high half, the lock in the low half. A thread
// takes the lock by its half, bumps the count by its half and releases;
// main reads the whole word after the join.
#include <assert.h>
#include <pthread.h>

union lockref {
  volatile long whole;
  struct {
    volatile int lock;
    volatile int count;
  };
} lr = {.count = 3};

void *t(void *p) {
  lr.lock = 1;
  lr.count = lr.count + 1;
  lr.lock = 0;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  long v = lr.whole;
  assert(v == 4L << 32);
  assert((int)(v >> 32) == 4 && (int)v == 0);
  return 0;
}
