// ck_ring style single-producer single-consumer ring over an array of
// structs, head and tail with __atomic acquire/release. The consumer
// copies a slot out whole (`*out = r.s[h & 1]`): one 8-byte load at an
// index known only at run time, over ints stored one by one. Under rc11
// and imm (where the optimised form is checked) this was refused
// ("unsupported mixed-size access ... offset ... not known before
// running"); the load, 4-aligned over a record cut in 4-byte cells, is
// now made of whole cells wherever it falls. PASS everywhere; -DBUG
// (the tail published relaxed): RACE under rc11/imm (lines 24/33), FAIL
// at line 42 under aarch64/power/riscv, PASS under sc/x86.
#include <pthread.h>
#include <assert.h>
#ifdef BUG
#define PUB __ATOMIC_RELAXED
#else
#define PUB __ATOMIC_RELEASE
#endif
struct slot { int key; int val; };
struct ring { unsigned head, tail; struct slot s[2]; } r;
static int enqueue(int k, int v) {
  unsigned t = __atomic_load_n(&r.tail, __ATOMIC_RELAXED);
  unsigned h = __atomic_load_n(&r.head, __ATOMIC_ACQUIRE);
  if (t - h == 2) return 0;
  r.s[t & 1].key = k;
  r.s[t & 1].val = v;
  __atomic_store_n(&r.tail, t + 1, PUB);
  return 1;
}
static int dequeue(struct slot *out) {
  unsigned h = __atomic_load_n(&r.head, __ATOMIC_RELAXED);
  unsigned t = __atomic_load_n(&r.tail, __ATOMIC_ACQUIRE);
  if (h == t) return 0;
  *out = r.s[h & 1];
  __atomic_store_n(&r.head, h + 1, __ATOMIC_RELEASE);
  return 1;
}
void *prod(void *a) { enqueue(1, 10); enqueue(2, 20); return 0; }
void *cons(void *a) {
  struct slot x;
  for (int i = 0; i < 2; i++)
    if (dequeue(&x))
      assert(x.val == 10 * x.key);
  return 0;
}
int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, prod, 0);
  pthread_create(&c, 0, cons, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
