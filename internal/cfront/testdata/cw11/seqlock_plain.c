// A sequence lock whose data are plain ints, as much legacy code writes
// it: the writer bumps the sequence to odd, writes the data, and bumps it
// to even (release, with a release fence after the odd store); the reader
// reads the sequence (acquire), the data, an acquire fence, and the
// sequence again, retrying on a change. On hardware this is correct, but
// in C11 a reader's plain read of the data and the writer's plain write
// are a data race whenever they overlap (the retry throws the value away,
// the race is still undefined behaviour): GenMC reports it.
// Default: RACE under rc11 and imm; PASS under sc, x86, aarch64, power,
// riscv (the reader never uses a torn pair).
// -D BUG: the reader does not re-check the sequence: it may use a torn
// pair: RACE under rc11 and imm; FAIL under sc, x86, aarch64, power,
// riscv.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_uint seq;
static int d1, d2;

static void *writer(void *arg) {
  (void)arg;
  unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
  atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
  d1 = 1;
  d2 = 1;
  atomic_store_explicit(&seq, s + 2, memory_order_release);
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  int a, b;
  for (;;) {
    unsigned s0 = atomic_load_explicit(&seq, memory_order_acquire);
    if (s0 & 1)
      continue;
    a = d1;
    b = d2;
    atomic_thread_fence(memory_order_acquire);
#ifdef BUG
    break;
#else
    if (atomic_load_explicit(&seq, memory_order_relaxed) == s0)
      break;
#endif
  }
  assert(a == b);
  pthread_join(w, 0);
  return 0;
}
