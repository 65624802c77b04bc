// aligned_alloc of a constant size: a heap object a thread writes and
// main reads after the join (clang-14 marks the call with return
// attributes that Musket drops before reading the IR).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *q;

void *t(void *p) {
  q[1] = 5;
  return 0;
}

int main(void) {
  q = aligned_alloc(16, 4 * sizeof(int));
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(q[1] == 5);
  free(q);
  return 0;
}
