// qsort from <stdlib.h> on a small array of ints and on an array of
// structs (by key; equal keys keep no promised order, C11 7.22.5.2), in a
// worker thread, with the result published to main by pthread_join.
// qsort is refused by name in every cell (no model of it yet).
// Default: the worker sorts, main checks the order: PASS natively.
// -D BUG: the comparator is reversed: FAIL natively (100/100).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int a[5] = {4, 1, 3, 5, 2};
struct rec { int key; char tag; };
static struct rec r[3] = {{3, 'c'}, {1, 'a'}, {2, 'b'}};

static int cmp_int(const void *x, const void *y) {
  int p = *(const int *)x, q = *(const int *)y;
#ifdef BUG
  return (q > p) - (q < p);
#else
  return (p > q) - (p < q);
#endif
}

static int cmp_rec(const void *x, const void *y) {
  const struct rec *p = x, *q = y;
  return p->key - q->key;
}

static void *worker(void *arg) {
  (void)arg;
  qsort(a, 5, sizeof a[0], cmp_int);
  qsort(r, 3, sizeof r[0], cmp_rec);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  for (int i = 0; i < 4; i++)
    assert(a[i] < a[i + 1]);
  assert(r[0].tag == 'a' && r[1].tag == 'b' && r[2].tag == 'c');
  return 0;
}
