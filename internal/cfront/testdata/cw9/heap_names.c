// Each worker formats its name into a heap buffer with sprintf (%08lx
// and %-3d|) and publishes it in a slot with a release store; main
// waits for both with acquire loads and checks their characters.
// Default: PASS everywhere. -D BUG: the buffers are 8 bytes, one too
// short for the 9 characters sprintf writes with its 0: an invalid
// memory access (FAIL everywhere; natively it overruns silently).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef BUG
#define LEN 8
#else
#define LEN 9
#endif
static _Atomic(char *) names[2];

static void *worker(void *arg) {
  long id = (long)arg;
  char *p = malloc(LEN);
  if (id)
    sprintf(p, "%08lx", 0xbeefUL);
  else
    sprintf(p, "%-3d|", 7);
  atomic_store_explicit(&names[id], p, memory_order_release);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0L);
  pthread_create(&b, 0, worker, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  char *n0 = atomic_load_explicit(&names[0], memory_order_acquire);
  char *n1 = atomic_load_explicit(&names[1], memory_order_acquire);
  assert(n0[0] == '7' && n0[1] == ' ' && n0[3] == '|' && n0[4] == 0);
  assert(n1[0] == '0' && n1[3] == '0' && n1[4] == 'b' && n1[7] == 'f' && n1[8] == 0);
  return 0;
}
