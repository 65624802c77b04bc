// One thread stores into a global a value computed from the one it has
// just read there, which the optimiser folds back to that value
// (t = x; x = t + 0), the other reads it: a write-read race
// in C. LLVM folded each store to x = x and deleted it, which left reads.
#include <pthread.h>

int word;

void *rewrite(void *arg) {
  int t = word;
  word = t + 0;
  return 0;
}

void *look(void *arg) {
  return (void *)(long)(word);
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, rewrite, 0);
  pthread_create(&b, 0, look, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
