// Variable-length arrays and alloca whose size changes from one
// iteration to the next: each thread calls f(k) for two sizes k, f fills
// a VLA int buf[k] and an alloca'd scratch of k ints and returns their
// last cells. The sizes are known once the loops are unrolled, so each
// instance gets an object of its own size. PASS under every model at
// -bound 3 (f's fill loop runs up to 3 times).
// -DBUG: f's fill loop starts at 1 and buf[0], t[0] are set to 0: f(1)
// returns 0 instead of 3, and the checked sum is wrong (FAIL under every
// model, natively too).
#include <pthread.h>
#include <assert.h>
#include <alloca.h>
int out[2];
static int f(int k) {
  int buf[k];
  int *t = alloca(k * sizeof(int));
#ifdef BUG
  buf[0] = 0;
  t[0] = 0;
  for (int j = 1; j < k; j++) {
#else
  for (int j = 0; j < k; j++) {
#endif
    buf[j] = j + 1;
    t[j] = buf[j] * 2;
  }
  return buf[k - 1] + t[k - 1];
}
void *thr(void *a) {
  int id = (int)(long)a;
  for (int k = 1; k <= 2; k++)
    out[id] += f(k + id);
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, thr, (void *)0L);
  pthread_create(&y, 0, thr, (void *)1L);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(out[0] == 3 + 6 && out[1] == 6 + 9);
  return 0;
}
