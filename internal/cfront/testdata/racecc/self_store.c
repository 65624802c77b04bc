// One thread stores into a global the value it has just read from it,
// the other reads it: a write-read race in C. LLVM deleted the store as
// a no-op, which left two reads.
#include <pthread.h>

int word;

void *rewrite(void *arg) {
  word = word;
  return 0;
}

void *look(void *arg) {
  return (void *)(long)word;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, rewrite, 0);
  pthread_create(&b, 0, look, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
