// Close to a use after the lifetime, but fine: a function registers the
// address of its local in a global table and returns; the address
// escapes, but later code only compares it (a stale pointer's value is
// indeterminate, C11 6.2.4p2, but here it is only tested against NULL
// after being cleared: the registration is undone before the return).
// Default: the entry is cleared before the return and main only reads
// the table's emptiness: PASS under every model.
// -D BUG: the entry is left behind and a thread dereferences it after
// the function returned: FAIL at line 28, "use of the local variable
// frame of enter after its lifetime ended", under every model
// (natively, under AddressSanitizer with detect_stack_use_after_return=1,
// every run fails).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct frame {
  int depth;
  const char *what;
};

static _Atomic(struct frame *) top;

static void *inspector(void *arg) {
  (void)arg;
  struct frame *f = atomic_load_explicit(&top, memory_order_acquire);
  if (f)
    assert(f->depth == 1);
  return 0;
}

static void enter(void) {
  struct frame frame = {1, "enter"};
  atomic_store_explicit(&top, &frame, memory_order_release);
  assert(atomic_load_explicit(&top, memory_order_relaxed)->depth == 1);
#ifndef BUG
  atomic_store_explicit(&top, 0, memory_order_release);
#endif
}

int main(void) {
  enter();
  pthread_t t;
  pthread_create(&t, 0, inspector, 0);
  pthread_join(t, 0);
  return 0;
}
