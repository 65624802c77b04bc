// One thread stores into a global a value computed from the one it has
// just read there, which the optimiser folds back to that value
// (x = (x | 0) * 1), the other reads it: a write-read race
// in C. LLVM folded each store to x = x and deleted it, which left reads.
#include <pthread.h>

int mask;

void *rewrite(void *arg) {
  mask = (mask | 0) * 1;
  return 0;
}

void *look(void *arg) {
  return (void *)(long)(mask);
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, rewrite, 0);
  pthread_create(&b, 0, look, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
