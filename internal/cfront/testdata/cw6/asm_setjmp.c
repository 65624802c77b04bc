// Constructs Musket must refuse by name, each under its own switch, in
// an otherwise correct message-passing program (PASS with no switch):
// -DASM_XCHG: an x86 "xchg" written in inline asm as the lock (an asm
//   that is not a fence);
// -DASM_PAUSE: the x86 "pause" spin hint in the wait loop;
// -DSETJMP: setjmp/longjmp for an error path in the reader.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#ifdef SETJMP
#include <setjmp.h>
static jmp_buf env;
#endif
static int data;
static atomic_int flag;
#ifdef ASM_XCHG
static int lockw;
static int xchg(int *p, int v) {
  __asm__ volatile("xchgl %0, %1" : "+r"(v), "+m"(*p) : : "memory");
  return v;
}
#endif
static void *writer(void *arg) {
  (void)arg;
#ifdef ASM_XCHG
  while (xchg(&lockw, 1))
    ;
#endif
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_release);
  return 0;
}
static void *reader(void *arg) {
  (void)arg;
#ifdef SETJMP
  if (setjmp(env))
    return 0;
#endif
  while (!atomic_load_explicit(&flag, memory_order_acquire)) {
#ifdef ASM_PAUSE
    __asm__ volatile("pause");
#endif
  }
#ifdef SETJMP
  if (data != 42)
    longjmp(env, 1);
#endif
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
