// A thread that creates threads: main starts two parents, each parent
// starts two children in a loop, joins them and returns the sum of
// their return values (pthread_exit from a child, return from the
// other) to main through pthread_join. Seven threads in all. Every
// child adds 1 to a global atomic counter. PASS everywhere.
// -DBUG: a parent returns before joining its second child, and main
// checks the counter after joining only the parents: a child may not
// have added yet (FAIL under every model).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
static atomic_int started;
static void *child(void *arg) {
  intptr_t v = (intptr_t)arg;
  atomic_fetch_add(&started, 1);
  if (v & 1)
    pthread_exit((void *)(v * 2));
  return (void *)(v * 2);
}
static void *parent(void *arg) {
  intptr_t base = (intptr_t)arg;
  pthread_t kids[2];
  for (intptr_t i = 0; i < 2; i++)
    pthread_create(&kids[i], NULL, child, (void *)(base + i));
  intptr_t sum = 0;
  void *r;
  pthread_join(kids[0], &r);
  sum += (intptr_t)r;
#ifndef BUG
  pthread_join(kids[1], &r);
  sum += (intptr_t)r;
#else
  sum += 2 * (base + 1);
#endif
  return (void *)sum;
}
int main(void) {
  pthread_t p[2];
  pthread_create(&p[0], NULL, parent, (void *)10);
  pthread_create(&p[1], NULL, parent, (void *)20);
  void *r0, *r1;
  pthread_join(p[0], &r0);
  pthread_join(p[1], &r1);
  assert((intptr_t)r0 == 42 && (intptr_t)r1 == 82);
  assert(atomic_load(&started) == 4);
  return 0;
}
