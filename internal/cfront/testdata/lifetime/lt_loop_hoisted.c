// A loop body's array indexed by a value the loop does not change:
// clang-14 -O1 computes &a[j] once, before the loop, hence before the
// array's lifetime starts in each iteration. Musket makes a new object
// at each start (C11 6.2.4p6) and evaluates constant offsets where they
// are used, but a variable one computed before the start could name an
// earlier iteration's object: refused by name at line 18 (never a
// silent answer).
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

static int *volatile keep;

int main(void) {
  int j = __VERIFIER_nondet_int() & 3;
  int s = 0;
  for (int i = 0; i < 2; i++) {
    int a[4] = {i, i, i, i};
    keep = &a[j];
    s += *keep;
  }
  assert(s == 1);
  return 0;
}
