// A plain counter incremented by two threads without a lock: a data race
// on counter, and the assertion that both increments are seen can fail
// too (each thread may read 0). Both are reported, the race first.
#include <assert.h>
#include <pthread.h>

int counter;

void *inc(void *a) {
  counter++;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
