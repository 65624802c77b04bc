// volatile is no synchronisation in C11 (5.1.2.4): a volatile int used
// as a ready flag between threads is a data race, and the hardware may
// reorder the plain data store and the flag store (Arm, Power, RISC-V).
// Default: the flag is a volatile atomic_int with release/acquire: PASS
// everywhere. -D BUG: a plain volatile int flag: RACE under rc11/imm;
// sc and x86 keep the order: PASS; aarch64, power, riscv: FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static int data;
#ifdef BUG
static volatile int ready;
#define SET() (ready = 1)
#define GET() (ready)
#else
static volatile atomic_int ready;
#define SET() atomic_store_explicit(&ready, 1, memory_order_release)
#define GET() atomic_load_explicit(&ready, memory_order_acquire)
#endif

static void *writer(void *arg) {
  (void)arg;
  data = 42;
  SET();
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  if (GET())
    assert(data == 42);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
