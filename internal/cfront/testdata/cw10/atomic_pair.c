// A C11 _Atomic struct: a pair of ints read and written whole (8 bytes,
// lock-free: one atomic access). The writer stores {1,1} then {2,2};
// the reader loads the pair twice and checks both fields agree and the
// pairs go forward. Default: PASS everywhere. -D BUG: the reader reads
// the fields of a plain copy of the struct (a non-atomic struct written
// field by field): the reader can see a = 2, b = 1: RACE under rc11/imm,
// FAIL elsewhere (sc too: the fields are two stores).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct pair {
  int a, b;
};

#ifdef BUG
static struct pair p;
#define STORE(v) (p.a = (v).a, p.b = (v).b)
#define LOAD() (p)
#else
static _Atomic struct pair p;
#define STORE(v) atomic_store(&p, (v))
#define LOAD() atomic_load(&p)
#endif

static void *writer(void *arg) {
  (void)arg;
  struct pair one = {1, 1}, two = {2, 2};
  STORE(one);
  STORE(two);
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  struct pair x = LOAD();
  struct pair y = LOAD();
  assert(x.a == x.b && y.a == y.b && x.a <= y.a);
  pthread_join(w, 0);
  return 0;
}
