// Three threads in two phases separated by a pthread barrier: phase 1
// each writes its own slot of a (plain), phase 2 each reads its
// neighbour's slot. Exactly one thread of each barrier round gets
// PTHREAD_BARRIER_SERIAL_THREAD (counted atomically). PASS everywhere.
// -DBUG: no barrier between the phases: a thread can read its
// neighbour's slot before it is written (FAIL under sc and the targets;
// RACE under rc11 and imm), and no thread is the serial one.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#define N 3
static pthread_barrier_t bar;
static int a[N];
static int b[N];
static atomic_int serial;
static void *work(void *arg) {
  int id = (int)(long)arg;
  a[id] = id + 1;
#ifndef BUG
  int r = pthread_barrier_wait(&bar);
  if (r == PTHREAD_BARRIER_SERIAL_THREAD)
    atomic_fetch_add(&serial, 1);
  else
    assert(r == 0);
#endif
  b[id] = a[(id + 1) % N];
  return NULL;
}
int main(void) {
  pthread_t t[N];
  pthread_barrier_init(&bar, NULL, N);
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], NULL, work, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < N; i++)
    assert(b[i] == (i + 1) % N + 1);
#ifndef BUG
  assert(atomic_load(&serial) == 1);
#endif
  pthread_barrier_destroy(&bar);
  return 0;
}
