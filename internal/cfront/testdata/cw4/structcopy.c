// A record of mixed-size fields (char, short, int, long long) filled by a
// producer and handed over by a release flag; the consumer copies it
// whole (a struct assignment, memcpy-sized) after an acquire load and
// checks every field, then passes its copy by value to a function.
// PASS everywhere. -DBUG: the flag is set relaxed: RACE under rc11/imm;
// FAIL under aarch64, power, riscv; PASS under sc and x86.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif
struct rec {
  char c;
  short s;
  int i;
  long long l;
};
struct rec box;
atomic_int ready;
static int check(struct rec r) { return r.c == 'x' && r.s == -2 && r.i == 300000 && r.l == (1LL << 40); }
void *producer(void *arg) {
  struct rec r = {'x', -2, 300000, 1LL << 40};
  box = r;
  atomic_store_explicit(&ready, 1, PUB);
  return NULL;
}
void *consumer(void *arg) {
  if (atomic_load_explicit(&ready, memory_order_acquire)) {
    struct rec copy = box;
    assert(check(copy));
  }
  return NULL;
}
int main(void) {
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return 0;
}
