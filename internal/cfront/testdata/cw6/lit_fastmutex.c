// pthread-lit style: Lamport's fast mutual exclusion algorithm (ACM TOCS
// 1987) for two threads, on plain volatile ints as the literature
// writes it, with a __VERIFIER_assume-free busy wait and a counter of
// threads inside the critical section checked by an assertion. Correct
// under sequential consistency: PASS under sc. Under x86 its
// store-then-load (x := i; if y != 0; ...) is reordered by the store
// buffer: FAIL; FAIL on aarch64; RACE under rc11 and imm (volatile is
// no atomic).
// -DFENCE: a full fence (__sync_synchronize) between every two accesses
// of the protocol that are not in one wait loop, and around the critical
// section: PASS under sc, x86 and aarch64 (still RACE under rc11/imm).
#include <pthread.h>
#include <assert.h>
#ifdef FENCE
#define MB() __sync_synchronize()
#else
#define MB() do { } while (0)
#endif
volatile int b[3], x, y;
int inside;
static void lock(int i) {
  for (;;) {
    b[i] = 1;
    MB();
    x = i;
    MB();
    if (y != 0) {
      b[i] = 0;
      while (y != 0)
        ;
      continue;
    }
    y = i;
    MB();
    if (x != i) {
      b[i] = 0;
      MB();
      for (int j = 1; j <= 2; j++) {
        while (b[j])
          ;
        MB();
      }
      if (y != i) {
        while (y != 0)
          ;
        continue;
      }
    }
    MB(); /* the critical section's accesses after the protocol's */
    return;
  }
}
static void unlock(int i) {
  MB(); /* ... and before the release */
  y = 0;
  MB();
  b[i] = 0;
}
static void *thr(void *arg) {
  int i = (int)(long)arg;
  lock(i);
  inside++;
  assert(inside == 1);
  inside--;
  unlock(i);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr, (void *)1L);
  pthread_create(&t2, 0, thr, (void *)2L);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
