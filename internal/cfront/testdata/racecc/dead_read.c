// One thread writes a global, another reads it into a variable it never
// uses: a read-write race in C. LLVM deleted the unused load.
#include <pthread.h>

int level;

void *writer(void *arg) {
  level = 7;
  return 0;
}

void *reader(void *arg) {
  int seen = level;
  (void)seen;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
