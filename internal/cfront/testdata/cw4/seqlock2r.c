// A sequence lock (Boehm's C11 form): one writer, two readers. The
// writer makes the sequence odd, fences (release), writes the two data
// words (relaxed atomics), and publishes the even sequence (release); a
// reader loads the sequence (acquire), the data, fences (acquire) and
// reloads the sequence: equal and even means a consistent snapshot.
// PASS everywhere. -DBUG: no release fence after the odd store: a reader
// may see new data under the old even sequence; FAIL at line 42 under
// rc11, imm, aarch64, power, riscv; PASS under sc and x86.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_uint seq;
atomic_int d1, d2;
void *writer(void *a) {
  unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
  atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
#ifndef BUG
  atomic_thread_fence(memory_order_release);
#endif
  atomic_store_explicit(&d1, 1, memory_order_relaxed);
  atomic_store_explicit(&d2, 1, memory_order_relaxed);
  atomic_store_explicit(&seq, s + 2, memory_order_release);
  return NULL;
}
void *reader(void *a) {
  unsigned s1 = atomic_load_explicit(&seq, memory_order_acquire);
  int x = atomic_load_explicit(&d1, memory_order_relaxed);
  int y = atomic_load_explicit(&d2, memory_order_relaxed);
  atomic_thread_fence(memory_order_acquire);
  unsigned s2 = atomic_load_explicit(&seq, memory_order_relaxed);
  if (s1 == s2 && (s1 & 1) == 0)
    assert(x == y && x == (int)(s1 / 2));
  return NULL;
}
int main(void) {
  pthread_t w, r[2];
  pthread_create(&w, NULL, writer, NULL);
  for (int i = 0; i < 2; i++)
    pthread_create(&r[i], NULL, reader, NULL);
  pthread_join(w, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(r[i], NULL);
  return 0;
}
