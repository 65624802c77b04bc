// Load buffering with a check between each thread's read and write, in
// the form -D FORM chooses: __VERIFIER_assert(c), if (!c) reach_error(),
// or assert(c). The three mean the same: the branch of the check orders
// the read before the write on AArch64, Power and RISC-V, so the load
// buffering outcome is forbidden there (and under IMM, which keeps
// dependencies too).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

extern void __VERIFIER_assert(int);
extern void reach_error(void);

#define CHECK_VA(c) __VERIFIER_assert(c)
#define CHECK_IF(c)                                                            \
  do {                                                                         \
    if (!(c))                                                                  \
      reach_error();                                                           \
  } while (0)
#define CHECK_ASSERT(c) assert(c)
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define CHECK(c) XCAT(CHECK_, FORM)(c)

atomic_int x, y;
int r0, r1;

void *t0(void *a) {
  r0 = atomic_load_explicit(&x, memory_order_relaxed);
  CHECK(r0 != 5);
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  return 0;
}

void *t1(void *a) {
  r1 = atomic_load_explicit(&y, memory_order_relaxed);
  CHECK(r1 != 5);
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t0, 0);
  pthread_create(&b, 0, t1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  CHECK(!(r0 == 1 && r1 == 1));
  return 0;
}
