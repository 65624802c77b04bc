/* Message passing of a pointer. With release/acquire (-DREL) the pointer
   read after the flag is never null: PASS. Relaxed, the flag may be seen
   before the pointer under rc11, imm and aarch64 (not sc, x86): the null
   field is read only in those consistent executions. */
#include <pthread.h>
#include <stdatomic.h>
#ifdef REL
#define W memory_order_release
#define R memory_order_acquire
#else
#define W memory_order_relaxed
#define R memory_order_relaxed
#endif
struct n {int a, b;};
static struct n node = {1, 2};
static struct n *_Atomic p;
static _Atomic int flag;
static void *t(void *x) {
  atomic_store_explicit(&p, &node, memory_order_relaxed);
  atomic_store_explicit(&flag, 1, W);
  return 0;
}
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  int r = 0;
  if (atomic_load_explicit(&flag, R))
    r = atomic_load_explicit(&p, memory_order_relaxed)->b;
  pthread_join(th, 0);
  return r;
}
