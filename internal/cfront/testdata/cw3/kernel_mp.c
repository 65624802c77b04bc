// Kernel-style message passing with smp_store_release and
// smp_load_acquire (musket/lkmm.h) compiled for a hardware target: a
// release store and an acquire load (STLR and LDAR on AArch64). Was a
// wrong FAIL under -target aarch64, power and riscv: the kernel's
// ACQUIRE and RELEASE kinds were compiled as relaxed accesses. PASS
// under every target and the LKMM; -DBUG (WRITE_ONCE / READ_ONCE):
// FAIL at line 33 under aarch64, power, riscv and the LKMM (PASS on x86).
#include <musket/lkmm.h>
#include <pthread.h>
#include <assert.h>

int data, flag;

void *p0(void *a) {
  (void)a;
  WRITE_ONCE(data, 1);
#ifdef BUG
  WRITE_ONCE(flag, 1);
#else
  smp_store_release(&flag, 1);
#endif
  return 0;
}

void *p1(void *a) {
  (void)a;
#ifdef BUG
  int f = READ_ONCE(flag);
#else
  int f = smp_load_acquire(&flag);
#endif
  if (f)
    assert(READ_ONCE(data) == 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p0, 0);
  pthread_create(&b, 0, p1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
