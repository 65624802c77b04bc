// A seqlock in the form Boehm argues is correct in C11 ("Can seqlocks
// get along with programming language memory models?", MSPC 2012): the
// data are relaxed atomics; the writer makes the sequence odd, fences
// with release, writes, and makes it even with release; the reader
// loads the sequence with acquire, the data relaxed, fences with
// acquire, and re-reads the sequence relaxed. A read between equal even
// sequence numbers sees one write's pair.
// Default: PASS under every model.
// -D BUG: the reader's acquire fence is gone: its second sequence read
// may come before the data reads: aarch64, power and riscv may accept a
// torn pair (FAIL); rc11 and imm too (nothing orders the data reads
// before the re-read); x86 and sc PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_uint seq;
static atomic_int d1, d2;

static void *writer(void *a) {
  (void)a;
  unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
  atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&d1, 1, memory_order_relaxed);
  atomic_store_explicit(&d2, 1, memory_order_relaxed);
  atomic_store_explicit(&seq, s + 2, memory_order_release);
  return 0;
}

static void *reader(void *a) {
  (void)a;
  unsigned s1 = atomic_load_explicit(&seq, memory_order_acquire);
  int r1 = atomic_load_explicit(&d1, memory_order_relaxed);
  int r2 = atomic_load_explicit(&d2, memory_order_relaxed);
#ifndef BUG
  atomic_thread_fence(memory_order_acquire);
#endif
  unsigned s2 = atomic_load_explicit(&seq, memory_order_relaxed);
  if (s1 == s2 && !(s1 & 1))
    assert(r1 == r2);
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
