// An array of _Atomic structs (8 bytes each, so lock-free): a writer
// stores a whole new pair into each cell with one atomic store; a reader
// loads each cell whole and checks its halves agree.
// Default: PASS under every model.
// -D BUG: the writer updates a cell's halves through an int pointer into
// the atomic object (two 4-byte plain stores, as code "optimizing" an
// atomic struct does): under rc11 and imm they race with the reader's
// atomic load (RACE); under sc, x86, aarch64, power and riscv the load may
// come between the two stores (FAIL: no tearing needed, one 8-byte load
// between two 4-byte stores).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct pair { int lo, hi; };
static _Atomic struct pair cells[2];

static void *writer(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++) {
#ifdef BUG
    int *raw = (int *)&cells[i];
    raw[0] = i + 1;
    raw[1] = i + 1;
#else
    struct pair p = {i + 1, i + 1};
    atomic_store(&cells[i], p);
#endif
  }
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  for (int i = 0; i < 2; i++) {
    struct pair p = atomic_load(&cells[i]);
    assert(p.lo == p.hi);
  }
  pthread_join(w, 0);
  return 0;
}
