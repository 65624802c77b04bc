// A struct copied whole into a heap object (a struct assignment, which
// clang makes a memcpy) and published through an atomic pointer with
// release; the reader acquires the pointer and copies the struct out.
// Default: PASS everywhere. -D BUG: the pointer is published relaxed:
// RACE under rc11/imm; sc and x86 keep the order: PASS; aarch64, power,
// riscv: FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct config {
  int id;
  int limits[3];
  char tag[4];
};

#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

static struct config *_Atomic current;

static void *writer(void *arg) {
  (void)arg;
  static const struct config base = {7, {1, 2, 3}, "ab"};
  struct config *c = malloc(sizeof *c);
  *c = base;
  c->limits[2] = 30;
  atomic_store_explicit(&current, c, PUB);
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  struct config *c = atomic_load_explicit(&current, memory_order_acquire);
  if (c) {
    struct config copy = *c;
    assert(copy.id == 7 && copy.limits[0] + copy.limits[2] == 31 && copy.tag[1] == 'b');
  }
  pthread_join(w, 0);
  free(atomic_load(&current));
  return 0;
}
