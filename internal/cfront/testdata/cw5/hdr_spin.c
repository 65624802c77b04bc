// A program split over headers, compiled as its build does: a local
// header (cw5_spin.h, a TTAS spinlock) that includes a configuration
// header found through -I inc, and -D NTHREADS=3. NTHREADS threads
// increment a plain counter under the lock. PASS under every model.
// -DUNLOCK_MO=memory_order_relaxed: the unlock no longer releases, so
// the increments race (RACE under rc11 and imm) and one can be lost on
// aarch64 (FAIL); x86 and sc PASS.
#include <pthread.h>
#include <assert.h>
#include "cw5_spin.h"
static spin_t lock;
static int counter;
static void *inc(void *arg) {
  (void)arg;
  spin_lock(&lock);
  counter++;
  spin_unlock(&lock);
  return NULL;
}
int main(void) {
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    pthread_create(&t[i], NULL, inc, NULL);
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
  assert(counter == NTHREADS);
  return 0;
}
