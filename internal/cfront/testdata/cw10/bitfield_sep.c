// Bit-fields in separate memory locations: a zero-width bit-field ends
// the storage unit, so the fields before and after it are different
// memory locations (C11 3.14, 6.7.2.1) and two threads may write them
// at once without a data race; each write touches only its own unit.
// Two workers set one field each, concurrently, without a lock; main
// checks both after the joins. Default: PASS everywhere. -D BUG: no
// zero-width bit-field: both fields are in one memory location: a data
// race (RACE under rc11/imm), and a read-modify-write of the unit can
// lose the other's bits (FAIL elsewhere).
#include <assert.h>
#include <pthread.h>

struct flags {
  unsigned low : 4;
#ifndef BUG
  unsigned : 0;
#endif
  unsigned high : 4;
};

static struct flags f;

static void *set_low(void *arg) {
  (void)arg;
  f.low = 5;
  return 0;
}

static void *set_high(void *arg) {
  (void)arg;
  f.high = 9;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, set_low, 0);
  pthread_create(&b, 0, set_high, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(f.low == 5 && f.high == 9);
  return 0;
}
