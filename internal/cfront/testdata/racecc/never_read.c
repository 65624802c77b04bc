// A static global that two threads write and nobody reads: a write-write
// race in C. LLVM's GlobalOpt deleted the global and its stores.
#include <pthread.h>

static long last;

void *note(void *arg) {
  last = (long)arg;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, note, (void *)3);
  pthread_create(&b, 0, note, (void *)4);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
