// snprintf into buffers too small: the result is the full length, the
// buffer holds what fits and a 0; two workers format into their own
// 6-byte slots and record the results; main checks them. Default: PASS
// everywhere. -D BUG: main asserts the result is what was written (5,
// not the full length): FAIL everywhere, natively 100%.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static char slots[2][6];
static int res[2];

static void *worker(void *arg) {
  long id = (long)arg;
  res[id] = snprintf(slots[id], sizeof slots[id], "%s-%04d", id ? "beta" : "al", (int)id + 41);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0L);
  pthread_create(&b, 0, worker, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(res[0] == 7 && res[1] == 9);
  assert(slots[0][0] == 'a' && slots[0][2] == '-' && slots[0][4] == '0' && slots[0][5] == 0);
  assert(slots[1][3] == 'a' && slots[1][4] == '-' && slots[1][5] == 0);
#ifdef BUG
  assert(res[1] == 5);
#endif
  return 0;
}
