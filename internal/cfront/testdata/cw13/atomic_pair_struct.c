// An _Atomic struct of two ints (8 bytes: lock-free, C11 6.2.5p27 and
// 7.17.6): loads and stores of the whole struct are single atomic
// accesses, so a reader never sees half of one write and half of
// another. Two writers store consistent pairs; a reader checks.
// Default: PASS under every model.
// -D BUG: the shared pair is a plain struct copied as a whole: a race
// under rc11 and imm (R); clang-14 -O1 splits the global into its two
// fields (shared.0, shared.1) and stores them one by one, so a reader
// may see one writer's a and the other's b: FAIL under every other
// model, sc included.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct pair {
  int a, b;
};

#ifdef BUG
static struct pair shared;
#define LOAD(p) (*(p))
#define STORE(p, v) (*(p) = (v))
#else
static _Atomic struct pair shared;
#define LOAD(p) atomic_load(p)
#define STORE(p, v) atomic_store(p, v)
#endif

static void *writer(void *arg) {
  int v = (int)(long)arg;
  struct pair p = {v, -v};
  STORE(&shared, p);
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  struct pair p = LOAD(&shared);
  assert(p.a == -p.b);
  return 0;
}

int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, writer, (void *)1L);
  pthread_create(&t[1], 0, writer, (void *)2L);
  pthread_create(&t[2], 0, reader, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
