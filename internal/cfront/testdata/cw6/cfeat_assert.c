// assert with side effects, abort() and exit() from a thread,
// _Static_assert, __builtin_expect, static inline helpers in a header
// (cw6_util.h). The worker counts its steps inside assert's argument
// (assert(++steps > 0)): with NDEBUG the count is never taken. A
// watchdog thread calls abort() if it sees an impossible state, and
// exit(0) once it has seen the worker finish (the process ends: main's
// later code may not run, which is no failure). PASS everywhere, with or
// without -DNDEBUG.
// -DBUG: main asserts steps == 3 with a plain read before the join (RACE under rc11
// and imm; FAIL under sc and the targets).
// -DABORT: the watchdog's impossible state is made possible: abort() is
// reached (native: SIGABRT on every run). Musket follows SV-COMP's
// convention, where abort() and exit() end the program and are no
// violation (assume_abort_if_not): PASS under every model.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <stdatomic.h>
#include "cw6_util.h"
_Static_assert(sizeof(int) == 4, "int is 32 bits");
_Static_assert(CW6_CAP > 2, "capacity");
static int steps;
static atomic_int finished;
static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++)
    assert(++steps > 0);
  atomic_store(&finished, 1);
  return NULL;
}
static void *watchdog(void *arg) {
  (void)arg;
  int f = atomic_load(&finished);
#ifdef ABORT
  if (__builtin_expect(cw6_clamp(f, 0, 1) >= 0, 1))
#else
  if (__builtin_expect(cw6_clamp(f, 0, 1) > 1, 0))
#endif
    abort();
  if (f)
    exit(0);
  return NULL;
}
int main(void) {
  pthread_t w, d;
  pthread_create(&w, NULL, worker, NULL);
  pthread_create(&d, NULL, watchdog, NULL);
#ifdef BUG
  assert(steps == 3);
#endif
  pthread_join(w, NULL);
  pthread_join(d, NULL);
#ifdef NDEBUG
  if (steps != 0)
    abort();
#else
  assert(steps == 3);
#endif
  return 0;
}
