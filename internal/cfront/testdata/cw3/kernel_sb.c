// Kernel-style store buffering with smp_mb() (musket/lkmm.h) compiled
// for a hardware target. smp_mb() is the target's full fence (mfence,
// sync, dmb ish, fence rw,rw): both threads cannot read 0. Was a wrong
// FAIL under -target x86 (the default) and power: the kernel's fence kind
// was read as a relaxed C11 fence (no fence on x86, lwsync on Power).
// PASS under every target and the LKMM; -DBUG (no smp_mb): FAIL at
// line 40.
#include <musket/lkmm.h>
#include <pthread.h>
#include <assert.h>

int x, y, r0, r1;

void *p0(void *a) {
  (void)a;
  WRITE_ONCE(x, 1);
#ifndef BUG
  smp_mb();
#endif
  r0 = READ_ONCE(y);
  return 0;
}

void *p1(void *a) {
  (void)a;
  WRITE_ONCE(y, 1);
#ifndef BUG
  smp_mb();
#endif
  r1 = READ_ONCE(x);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p0, 0);
  pthread_create(&b, 0, p1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(r0 + r1 != 0);
  return 0;
}
