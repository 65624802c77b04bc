// free of a pointer to a loop body's local (read back from memory, so
// the call does not name the local): the local is no object malloc
// made (C11 7.22.3.3p2: the behaviour is undefined; glibc aborts,
// "free(): invalid pointer"). Musket makes such a local a heap object
// of its own (lifetime.go), whose freed mark starts at a value free
// recognises.
// Default: the pointer is only read through: PASS under every model.
// -D BUG: it is freed: FAIL at line 22, "free of memory that malloc did
// not allocate", under every model.
#include <assert.h>
#include <stdlib.h>

static int *volatile keep;

int main(void) {
  int sum = 0;
  for (int i = 0; i < 2; i++) {
    int v = i + 1;
    keep = &v;
    sum += *keep;
#ifdef BUG
    free(keep);
#endif
  }
  assert(sum == 3);
  return 0;
}
