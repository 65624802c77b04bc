// A volatile sig_atomic_t stop flag used between threads, as programs
// written for signal handlers do: a worker polls `stop` and then reads
// the result the main thread wrote before setting it. volatile
// sig_atomic_t is only made safe for a signal handler of the same
// thread (C11 5.1.2.3p5, 7.14.1.1p5): between threads the flag and the
// result are data races.
// Default: the flag is an atomic_int (seq_cst), written after the
// result: PASS under every model.
// -D BUG: the worker polls the volatile flag without the mutex: RACE
// under rc11 and imm; sc and x86 PASS (stores and loads stay in order);
// aarch64, power, riscv FAIL (the flag may be seen before the result).
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#ifdef BUG
static volatile sig_atomic_t stop;
#else
static atomic_int stop;
#endif
static int result;

static void *worker(void *arg) {
  (void)arg;
  while (!stop)
    ;
  assert(result == 42);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  result = 42;
  stop = 1;
  pthread_join(t, 0);
  return 0;
}
