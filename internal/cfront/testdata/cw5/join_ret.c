// Results returned through pthread_join: one thread returns a malloc'ed
// record, another an integer cast to a pointer, a third calls
// pthread_exit from a nested function. PASS everywhere.
// -DBUG: main also reads a global the second thread writes, before
// joining it (RACE under rc11 and imm; FAIL under sc and the targets).
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
struct res {
  int id;
  long value;
};
int early;
static void *t_rec(void *arg) {
  struct res *r = malloc(sizeof *r);
  r->id = 1;
  r->value = (long)(intptr_t)arg * 3;
  return r;
}
static void *t_int(void *arg) {
  early = 7;
  return (void *)(intptr_t)((intptr_t)arg + 40);
}
static void finish(int v) { pthread_exit((void *)(intptr_t)v); }
static void *t_exit(void *arg) {
  (void)arg;
  finish(-5);
  return (void *)1;
}
int main(void) {
  pthread_t a, b, c;
  void *ra, *rb, *rc;
  pthread_create(&a, NULL, t_rec, (void *)(intptr_t)14);
  pthread_create(&b, NULL, t_int, (void *)(intptr_t)2);
  pthread_create(&c, NULL, t_exit, NULL);
#ifdef BUG
  assert(early == 7);
#endif
  pthread_join(a, &ra);
  pthread_join(b, &rb);
  pthread_join(c, &rc);
  struct res *r = ra;
  assert(r->id == 1 && r->value == 42);
  free(r);
  assert((intptr_t)rb == 42);
  assert((intptr_t)rc == -5);
  return 0;
}
