// SV-COMP atomic sections (__VERIFIER_atomic_begin/end) keeping two
// variables equal: a writer updates both inside one section, a reader
// reads both inside another. Musket lowers a section as one hidden lock
// (atomicsec.go), which is SV-COMP's meaning when every access to the
// variables is inside a section, as here.
// Default: PASS under every model (the sections are ordered by the
// lock; rc11 and imm: no race, every access is inside a section).
// -D BUG: the writer updates the second variable after its section: a
// race under rc11 and imm (R), and the reader may see them unequal
// under every other model (FAIL).
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

static int x, y;

static void *writer(void *a) {
  (void)a;
  __VERIFIER_atomic_begin();
  x = 1;
#ifndef BUG
  y = 1;
#endif
  __VERIFIER_atomic_end();
#ifdef BUG
  y = 1;
#endif
  return 0;
}

static void *reader(void *a) {
  (void)a;
  __VERIFIER_atomic_begin();
  int rx = x, ry = y;
  __VERIFIER_atomic_end();
  assert(rx == ry);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
