// A pointer to a loop body's local kept across iterations: the object
// the pointer names ends with its iteration (C11 6.2.4p6), and the next
// iteration's local is a new object, even at the same address.
// Default: the pointer is used in its own iteration only: PASS.
// -D BUG: the next iteration reads through the old pointer: FAIL at the
// read, "use of the local variable cur of main after its lifetime ended",
// under every model (one thread: no weak behaviour is needed).
#include <assert.h>
#include <pthread.h>

static int *volatile last;

int main(void) {
  int sum = 0;
  for (int i = 0; i < 3; i++) {
    int cur = i * 2;
#ifdef BUG
    if (last)
      sum += *last;
#endif
    last = &cur;
    sum += *last;
  }
  assert(sum >= 0);
  return 0;
}
