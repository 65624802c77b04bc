// Memory locations of bitfields (C11 3.14 and 6.7.2.1): a run of
// adjacent non-zero-width bitfields is one memory location, but a
// zero-width bitfield ends the run, and a bitfield and the next
// non-bitfield member are separate locations. Thread A writes its
// bitfield `a` and the char `tag` beside the run; thread B writes `b`,
// separated from `a` by `unsigned : 0`. No two threads write the same
// location: PASS under every model (no race; no update is lost).
// -DBUG: no zero-width bitfield, so `a` and `b` share a location and
// each write is a read-modify-write of the word: RACE under rc11 and
// imm, and under the others one thread's update can be lost (FAIL).
#include <assert.h>
#include <pthread.h>

struct status {
  unsigned a : 5;
#ifndef BUG
  unsigned : 0;
#endif
  unsigned b : 6;
  unsigned char tag;
};
static struct status st = {.a = 1, .b = 2, .tag = 'x'};

static void *thread_a(void *arg) {
  (void)arg;
  st.a = 17;
  st.tag = 'y';
  return 0;
}

static void *thread_b(void *arg) {
  (void)arg;
  st.b = 33;
  return 0;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, thread_a, 0);
  pthread_create(&y, 0, thread_b, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(st.a == 17 && st.b == 33 && st.tag == 'y');
  return 0;
}
