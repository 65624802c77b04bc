// A release sequence continued by a read-modify-write in another thread:
// T1 writes data (plain) and sets the flag to 1 (release); T2 bumps the
// flag with a relaxed fetch_add; T3 reads 2 with acquire and reads data.
// The fetch_add continues T1's release sequence, so T3 synchronises with
// T1: PASS everywhere. -DBUG: T2 reads the flag and stores 2 with a
// relaxed plain store: the sequence is broken, RACE under rc11/imm
// (which give the store no order); PASS under sc, x86, aarch64 (the
// control dependency and multi-copy atomicity keep the chain ordered).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int flag;
void *t1(void *a) {
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_release);
  return NULL;
}
void *t2(void *a) {
#ifdef BUG
  if (atomic_load_explicit(&flag, memory_order_relaxed) == 1)
    atomic_store_explicit(&flag, 2, memory_order_relaxed);
#else
  atomic_fetch_add_explicit(&flag, 1, memory_order_relaxed);
#endif
  return NULL;
}
void *t3(void *a) {
  if (atomic_load_explicit(&flag, memory_order_acquire) == 2)
    assert(data == 42);
  return NULL;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_create(&c, NULL, t3, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);
  return 0;
}
