/* Read after the join: never null, PASS everywhere. */
#include <pthread.h>
#include <stdatomic.h>
struct n {int a, b;};
static struct n node = {1, 2};
static struct n *_Atomic p;
static void *t(void *x) { atomic_store(&p, &node); return 0; }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  pthread_join(th, 0);
  return atomic_load(&p)->b;
}
