// A GNU computed-goto dispatcher (labels as values, goto *table[op]),
// the interpreter style of many benchmarks: a worker runs a tiny
// bytecode program that adds to an accumulator, then publishes it with
// a release; main acquires and checks. Default: PASS everywhere.
// -D BUG: the bytecode's second op is SUB instead of ADD: FAIL
// everywhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static int result;
static atomic_int done;

enum { ADD, SUB, HALT };

static void *run(void *arg) {
  (void)arg;
#ifdef BUG
  static const unsigned char code[] = {ADD, SUB, ADD, HALT};
#else
  static const unsigned char code[] = {ADD, ADD, ADD, HALT};
#endif
  static void *const table[] = {&&op_add, &&op_sub, &&op_halt};
  int acc = 0, pc = 0;
  goto *table[code[pc]];
op_add:
  acc += 2;
  goto *table[code[++pc]];
op_sub:
  acc -= 2;
  goto *table[code[++pc]];
op_halt:
  result = acc;
  atomic_store_explicit(&done, 1, memory_order_release);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, run, 0);
  if (atomic_load_explicit(&done, memory_order_acquire))
    assert(result == 6);
  pthread_join(t, 0);
  assert(result == 6);
  return 0;
}
