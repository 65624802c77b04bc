// Store buffering with the target's full fence written in inline asm
// (-D 'FENCE="dmb ish"' and so on; mfence by default): the fence forbids
// the outcome in which both threads read 0. -D 'FENCE=""' is the compiler
// barrier alone, which orders nothing between threads.
#include <assert.h>
#include <pthread.h>

#ifndef FENCE
#define FENCE "mfence"
#endif

volatile int x, y;
int a, b;

void *t0(void *p) {
  x = 1;
  asm volatile(FENCE ::: "memory");
  a = y;
  return 0;
}

void *t1(void *p) {
  y = 1;
  asm volatile(FENCE ::: "memory");
  b = x;
  return 0;
}

int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  assert(a == 1 || b == 1);
  return 0;
}
