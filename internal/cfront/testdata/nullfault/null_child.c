/* Two threads, symmetric, each reads through the pointer main may not
   have set yet: the fault is in a created thread, which then never ends
   (main waits at its join), FAIL everywhere. With -DSET main sets the
   pointer before creating them: PASS. */
#include <pthread.h>
struct n {int a, b;};
static struct n node = {1, 2};
static struct n *_Atomic p;
static void *t(void *x) { return (void *)(long)p->b; }
int main(void) {
  pthread_t a, b;
#ifdef SET
  p = &node;
#endif
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
#ifndef SET
  p = &node;
#endif
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
