// Atomics narrower than int wrap at their width: an _Atomic unsigned
// char at 254 incremented by two workers ends at 0; an _Atomic short at
// -32767 decremented twice ends at 32767 (atomic arithmetic on signed
// types wraps, C11 7.17.7.5); fetch_add returns the old value in the
// narrow type. Default: PASS everywhere. -D BUG: main expects 256 in the
// char counter: FAIL everywhere.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static _Atomic unsigned char small = 254;
static _Atomic short half = -32767;
static atomic_int olds;

static void *worker(void *arg) {
  (void)arg;
  unsigned char old = atomic_fetch_add(&small, 1);
  atomic_fetch_add(&olds, old);
  atomic_fetch_sub(&half, 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
#ifdef BUG
  assert(atomic_load(&small) == 256);
#else
  assert(atomic_load(&small) == 0);
#endif
  assert(atomic_load(&half) == 32767 && atomic_load(&olds) == 254 + 255);
  return 0;
}
