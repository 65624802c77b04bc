// Compound assignment to an _Atomic object is one atomic read-modify-
// write with seq_cst (C11 6.5.16.2p3); "x = x + 2" on the same object is
// an atomic load and a separate atomic store. Two threads add 2 each.
// Default: "cnt += 2": cnt is 4 after the joins under every model.
// -D BUG: "cnt = cnt + 2": a lost update (both load 0): FAIL under every
// model, sc included; no data race (every access is atomic).
#include <assert.h>
#include <pthread.h>

static _Atomic int cnt;

static void *adder(void *a) {
  (void)a;
#ifdef BUG
  cnt = cnt + 2;
#else
  cnt += 2;
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, adder, 0);
  pthread_create(&b, 0, adder, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(cnt == 4);
  return 0;
}
