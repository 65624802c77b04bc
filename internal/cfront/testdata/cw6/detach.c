// Detached threads: one made detached through its attributes
// (PTHREAD_CREATE_DETACHED), one that detaches itself with
// pthread_detach(pthread_self()). Neither can be joined; each hands its
// result back with a release store of a flag that main reads with
// acquire in a wait loop. PASS everywhere.
// -DBUG: the flags are stored and read relaxed: main may see the flag
// but not the result (RACE under rc11 and imm; FAIL on aarch64; x86 and
// sc PASS).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#ifdef BUG
#define ST memory_order_relaxed
#define LD memory_order_relaxed
#else
#define ST memory_order_release
#define LD memory_order_acquire
#endif
static int result[2];
static atomic_int ready[2];
static void *self_detach(void *arg) {
  (void)arg;
  pthread_detach(pthread_self());
  result[0] = 11;
  atomic_store_explicit(&ready[0], 1, ST);
  return NULL;
}
static void *born_detached(void *arg) {
  (void)arg;
  result[1] = 22;
  atomic_store_explicit(&ready[1], 1, ST);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&a, NULL, self_detach, NULL);
  pthread_create(&b, &attr, born_detached, NULL);
  pthread_attr_destroy(&attr);
  for (int i = 0; i < 2; i++)
    while (!atomic_load_explicit(&ready[i], LD))
      ;
  assert(result[0] + result[1] == 33);
  return 0;
}
