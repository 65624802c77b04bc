/* A null field read on the interleavings where the thread has not yet
   published the node: FAIL under every model. */
#include <pthread.h>
struct n {int a, b;};
static struct n node = {1, 2};
static struct n *_Atomic p;
static void *t(void *x) { p = &node; return 0; }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  int v = p->b;
  pthread_join(th, 0);
  return v;
}
