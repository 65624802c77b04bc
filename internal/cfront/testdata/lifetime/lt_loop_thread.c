// A local declared in a loop body, handed to a thread created in that
// iteration: each entry into the body starts a new lifetime of the local
// (C11 6.2.4p6), and the lifetime ends where the iteration ends.
// Default: each iteration joins its thread before it ends: PASS.
// -D BUG: the threads are joined after the loop: a thread may read its
// job after the iteration that made it ended (the next iteration's object
// may sit at the same address): FAIL, "use of the local variable job of
// main after its lifetime ended" at line 21, under every model.
#include <assert.h>
#include <pthread.h>

struct job {
  int id;
  int weight;
};

static int total;

static void *run(void *arg) {
  struct job *j = arg;
  assert(j->weight == j->id + 1);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) {
    struct job job = {i, i + 1};
    pthread_create(&t[i], 0, run, &job);
#ifndef BUG
    pthread_join(t[i], 0);
#endif
  }
#ifdef BUG
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
#endif
  return 0;
}
