// Thread-local objects (C11 6.2.4p4: a _Thread_local object lives as
// long as its thread). Each worker publishes the address of its own copy
// of `slot` in a table; main reads the table.
// Default: main reads each copy while its thread lives (a worker ends
// only after main's acknowledgement), and main's own copy, which lives
// until the process ends, is read by the workers: PASS under every model.
// -D BUG: main reads the copies after joining the workers: FAIL at line
// 52, "use of the thread-local variable slot of thread P1 after the
// thread ended", under every model. (Natively the copy usually survives:
// 0/100 runs fail.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 2

static __thread int slot;
static _Atomic(int *) table[N];
static _Atomic(int *) mains;
static atomic_int ack;

static void *worker(void *arg) {
  int i = (int)(long)arg;
  slot = 10 + i;
  int *m = atomic_load_explicit(&mains, memory_order_acquire);
  assert(*m == 7);
  atomic_store_explicit(&table[i], &slot, memory_order_release);
  while (!atomic_load_explicit(&ack, memory_order_acquire))
    ;
  return 0;
}

int main(void) {
  pthread_t t[N];
  slot = 7;
  atomic_store_explicit(&mains, &slot, memory_order_release);
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  int *p[N];
  for (int i = 0; i < N; i++) {
    int *q;
    while (!(q = atomic_load_explicit(&table[i], memory_order_acquire)))
      ;
    p[i] = q;
  }
#ifdef BUG
  atomic_store_explicit(&ack, 1, memory_order_release);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
#endif
  for (int i = 0; i < N; i++)
    assert(*p[i] == 10 + i);
#ifndef BUG
  atomic_store_explicit(&ack, 1, memory_order_release);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
#endif
  return 0;
}
