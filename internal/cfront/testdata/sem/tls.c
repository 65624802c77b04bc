// Thread-local variables: each thread has its own copy, initialised from
// the declaration; a thread writing its copy leaves main's alone.
#include <assert.h>
#include <pthread.h>

__thread int x = 5;
_Thread_local int y[2] = {1, 2};

void *t(void *a) {
  assert(x == 5 && y[0] == 1);
  x = 7;
  y[1] = 9;
  assert(x == 7 && y[1] == 9);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(x == 5 && y[1] == 2);
  return 0;
}
