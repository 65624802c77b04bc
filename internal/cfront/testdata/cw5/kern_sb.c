// Kernel code ported to user space the way liburcu and ck do it: the
// program defines its own READ_ONCE/WRITE_ONCE (volatile casts),
// barrier() (an empty asm with a memory clobber) and smp_mb()
// (__sync_synchronize). Store buffering with smp_mb on both sides: PASS
// on x86 and aarch64 and under sc. Under rc11 and imm the volatile
// accesses are plain C accesses, and two of them race (RACE): C11 gives
// volatile no atomicity.
// -DBUG: barrier() instead of smp_mb(): only the compiler is held back,
// so both reads can see 0 on x86 and aarch64 (FAIL).
#include <pthread.h>
#include <assert.h>
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier() __asm__ __volatile__("" ::: "memory")
#ifdef BUG
#define smp_mb() barrier()
#else
#define smp_mb() __sync_synchronize()
#endif
static int x, y;
static int r0, r1;
static void *cpu0(void *arg) {
  WRITE_ONCE(x, 1);
  smp_mb();
  r0 = READ_ONCE(y);
  return arg;
}
static void *cpu1(void *arg) {
  WRITE_ONCE(y, 1);
  smp_mb();
  r1 = READ_ONCE(x);
  return arg;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, cpu0, NULL);
  pthread_create(&b, NULL, cpu1, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(!(r0 == 0 && r1 == 0));
  return 0;
}
