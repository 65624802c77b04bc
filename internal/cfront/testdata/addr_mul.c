// Arithmetic on an address beyond what the engines' values support (an
// address multiplied): the SMT engine computes it on integers and finds
// the failure; the graph and explicit engines must say they cannot run
// it, never PASS (issue #24).
#include <assert.h>
#include <stdint.h>

int arr[4];
int *volatile pp;

int main(void) {
  pp = &arr[1];
  uintptr_t a = (uintptr_t)pp;
  assert(a * 3 == 5);
  return 0;
}
