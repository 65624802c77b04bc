// rand's sequence is fixed (C11 7.22.2.2): a program that never calls
// srand gets srand(1)'s numbers, the same in every run; a worker takes
// three after main took two. The assertions hold in every run (glibc's
// numbers); a checker that took rand as any value would report them.
// Default: PASS everywhere. -D BUG: asserts the worker's first number is
// glibc's first (it is the third): FAIL everywhere, natively 100%.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int w[3];

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++)
    w[i] = rand();
  return 0;
}

int main(void) {
  int a = rand(), b = rand();
  assert(a == 1804289383 && b == 846930886);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(w[0] == 1681692777 && w[2] == 1957747793);
#ifdef BUG
  assert(w[0] == 1804289383);
#endif
  assert(rand() % 100 >= 0);
  return 0;
}
