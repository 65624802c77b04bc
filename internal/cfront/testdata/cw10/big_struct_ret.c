// A struct too big for registers (40 bytes: returned through a hidden
// pointer, passed by value on the stack) made by a function in each
// worker, passed by value to a checker, and stored whole into a heap
// object published with release to main. Default: PASS everywhere.
// -D BUG: the checker modifies its by-value copy and the worker then
// expects the modification in its own struct (a copy was passed):
// FAIL everywhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct rec {
  long a, b, c, d;
  int tag;
};

static struct rec *_Atomic out[2];

static struct rec build(int id) {
  struct rec r = {id, id * 2L, id * 3L, id * 4L, 7};
  return r;
}

static long check(struct rec r) {
  r.tag = 99;
  return r.a + r.b + r.c + r.d;
}

static void *worker(void *arg) {
  int id = (int)(long)arg + 1;
  struct rec r = build(id);
  long s = check(r);
#ifdef BUG
  assert(r.tag == 99);
#endif
  assert(s == 10L * id && r.tag == 7);
  struct rec *p = malloc(sizeof *p);
  *p = r;
  atomic_store_explicit(&out[id - 1], p, memory_order_release);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++) {
    struct rec *p = atomic_load_explicit(&out[i], memory_order_acquire);
    if (p)
      assert(p->d == 4L * (i + 1) && p->tag == 7);
  }
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  free(out[0]);
  free(out[1]);
  return 0;
}
