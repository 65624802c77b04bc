/* A failed CAS gives the current value: null when the thread has cleared
   the pointer first (FAIL everywhere). With -DNEVER the pointer is never
   null and the expected value is: the CAS always fails and gives the
   node (PASS). */
#include <pthread.h>
#include <stdatomic.h>
struct n {int a, b;};
static struct n node = {1, 2};
static struct n *_Atomic p = &node;
static void *t(void *x) {
#ifdef NEVER
  atomic_store(&p, &node);
#else
  struct n *e = &node;
  atomic_compare_exchange_strong(&p, &e, (struct n *)0);
#endif
  return 0;
}
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
#ifdef NEVER
  struct n *cur = (struct n *)0;
#else
  struct n *cur = &node;
#endif
  if (!atomic_compare_exchange_strong(&p, &cur, &node))
    cur->b = 5;
  pthread_join(th, 0);
  return 0;
}
