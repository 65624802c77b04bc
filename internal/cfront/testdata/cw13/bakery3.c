// Lamport's bakery algorithm for three threads (pthread-lit's bakery,
// with C11 seq_cst atomics: the algorithm assumes sequential
// consistency). Each thread takes a ticket one above the largest it
// sees, then waits for every thread choosing or holding a smaller
// (ticket, id). The critical section checks it is alone.
// Default: PASS under every model.
// -D BUG: a thread does not wait for the others to finish choosing:
// two threads can read each other's ticket as 0 while still choosing,
// take equal tickets, and the one with the larger id enters early:
// FAIL under every model, sc included.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 3
static atomic_int choosing[N], number[N];
static atomic_int inside;

static void *proc(void *arg) {
  int i = (int)(long)arg;
  atomic_store(&choosing[i], 1);
  int max = 0;
  for (int j = 0; j < N; j++) {
    int n = atomic_load(&number[j]);
    if (n > max)
      max = n;
  }
  atomic_store(&number[i], max + 1);
  atomic_store(&choosing[i], 0);
  for (int j = 0; j < N; j++) {
    if (j == i)
      continue;
#ifndef BUG
    while (atomic_load(&choosing[j]))
      ;
#endif
    for (;;) {
      int nj = atomic_load(&number[j]);
      int ni = atomic_load(&number[i]);
      if (nj == 0 || nj > ni || (nj == ni && j > i))
        break;
    }
  }
  assert(atomic_fetch_add(&inside, 1) == 0);
  atomic_fetch_sub(&inside, 1);
  atomic_store(&number[i], 0);
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, proc, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  return 0;
}
