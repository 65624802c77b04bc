// A variable-length array sized by the thread's argument: each worker
// fills a VLA of n ints, sums it and publishes the sum in its slot of a
// shared array (each worker its own slot: no race). Default: PASS
// everywhere. -D BUG: worker 1's loop writes one element past its VLA
// (i <= n): out of bounds on the stack, undefined behaviour; natively it
// goes unnoticed (0 failures); Musket reports an invalid memory access
// (FAIL everywhere).
#include <assert.h>
#include <pthread.h>

static int sums[2];

static void *worker(void *arg) {
  int n = (int)(long)arg;
  int buf[n];
  int last = n - 1;
#ifdef BUG
  if (n == 3)
    last = n;
#endif
  for (int i = 0; i <= last; i++)
    buf[i] = i + 1;
  int s = 0;
  for (int i = 0; i < n; i++)
    s += buf[i];
  sums[n - 2] = s;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)2);
  pthread_create(&b, 0, worker, (void *)3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(sums[0] == 3 && sums[1] == 6);
  return 0;
}
