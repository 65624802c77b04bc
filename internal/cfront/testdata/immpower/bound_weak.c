// Message passing with relaxed accesses: the reader's loop needs more
// iterations than the bound only when it sees the flag and not the data,
// which sequential consistency forbids and IMM and Power allow. IMM and
// Power say BOUND, SC says PASS: the shortcut must not answer (an
// execution past the bound under IMM is not one under Power), and the
// SMT engine does.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y, z;
int n = 3;

static void *t2(void *p) {
  (void)p;
  if (atomic_load_explicit(&y, memory_order_relaxed) == 1) {
    int k = atomic_load_explicit(&x, memory_order_relaxed) == 0 ? n : 0;
    for (int i = 0; i < k; i++)
      atomic_store_explicit(&z, i + 1, memory_order_relaxed);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t2, 0);
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  pthread_join(t, 0);
  assert(atomic_load_explicit(&z, memory_order_relaxed) < 4);
  return 0;
}
