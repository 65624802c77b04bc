// Lazy initialisation by a three-state word (UNINIT, BUSY, READY) instead
// of a lock, as runtime libraries do for static locals: the first thread
// to CAS UNINIT->BUSY builds the object and stores READY (release); the
// others spin until READY (acquire) and use the object.
// Default: PASS under every model.
// -D BUG: READY is stored before the object is built: a thread may use
// an unbuilt object (RACE under rc11 and imm; FAIL under sc, x86,
// aarch64, power, riscv).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

enum { UNINIT, BUSY, READY };
static atomic_int state;
static struct { int a, b; } obj;

static void build(void) {
  obj.a = 1;
  obj.b = 2;
}

static void *get(void *arg) {
  (void)arg;
  int s = UNINIT;
  if (atomic_compare_exchange_strong_explicit(&state, &s, BUSY, memory_order_acquire,
                                              memory_order_acquire)) {
#ifdef BUG
    atomic_store_explicit(&state, READY, memory_order_release);
    build();
#else
    build();
    atomic_store_explicit(&state, READY, memory_order_release);
#endif
  } else {
    while (atomic_load_explicit(&state, memory_order_acquire) != READY)
      ;
  }
  assert(obj.a + obj.b == 3);
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, get, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
