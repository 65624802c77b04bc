// A thread-local variable is not shared: main never sees the thread's
// write, so the assertion fails.
#include <assert.h>
#include <pthread.h>

_Thread_local int x;

void *t(void *a) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(x == 1);
  return 0;
}
