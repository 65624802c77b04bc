// GenMC tests/wrong style: IRIW with two writers (relaxed... here
// release stores) and two readers whose reads are acquire. The readers
// disagreeing on the order of the two writes (r1=1,r2=0 and r3=1,r4=0)
// is allowed by RC11 and IMM for acquire reads (only SC accesses forbid
// it): FAIL under rc11 and imm, PASS under sc, x86 and aarch64
// (multi-copy atomic, and LDAR is ordered).
// -DSC: every access is seq_cst: PASS under every model.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#ifdef SC
#define W memory_order_seq_cst
#define R memory_order_seq_cst
#else
#define W memory_order_release
#define R memory_order_acquire
#endif
static atomic_int x, y;
static int r1, r2, r3, r4;
static void *wx(void *a) { atomic_store_explicit(&x, 1, W); return a; }
static void *wy(void *a) { atomic_store_explicit(&y, 1, W); return a; }
static void *rxy(void *a) {
  r1 = atomic_load_explicit(&x, R);
  r2 = atomic_load_explicit(&y, R);
  return a;
}
static void *ryx(void *a) {
  r3 = atomic_load_explicit(&y, R);
  r4 = atomic_load_explicit(&x, R);
  return a;
}
int main(void) {
  pthread_t t[4];
  void *(*fns[4])(void *) = {wx, rxy, ryx, wy};
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, fns[i], NULL);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  assert(!(r1 == 1 && r2 == 0 && r3 == 1 && r4 == 0));
  return 0;
}
