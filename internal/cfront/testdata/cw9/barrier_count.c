// SV-COMP's barrier_vf shape: a barrier made of a counter under a mutex
// and a release/acquire flag the last thread sets; before it each
// thread writes its slot, after it each reads the other's. Default:
// PASS everywhere. -D BUG: the flag is set when the first thread
// arrives: a thread may read the other's slot before it is written
// (RACE under rc11/imm, FAIL elsewhere).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static int slot[2];
static int arrived;
static atomic_int open_;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  long id = (long)arg;
  slot[id] = (int)id + 10;
  pthread_mutex_lock(&mu);
  arrived++;
#ifdef BUG
  int last = arrived >= 1;
#else
  int last = arrived == 2;
#endif
  pthread_mutex_unlock(&mu);
  if (last)
    atomic_store_explicit(&open_, 1, memory_order_release);
  while (!atomic_load_explicit(&open_, memory_order_acquire))
    ;
  assert(slot[1 - id] == 11 - (int)id);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0L);
  pthread_create(&b, 0, worker, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
