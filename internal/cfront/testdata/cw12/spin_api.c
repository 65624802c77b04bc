// POSIX spin locks (pthread_spin_init, pthread_spin_lock,
// pthread_spin_trylock, pthread_spin_unlock, pthread_spin_destroy), as
// programs written for Linux use them for short critical sections.
// Default: two threads add under the spin lock, a third tries the lock
// and adds only when it got it: the total is 2 plus the successful
// tries: PASS under every model.
// -D BUG: the third thread adds even when its try failed: a race under
// rc11/imm, FAIL under the others.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_spinlock_t sl;
static int total;
static atomic_int got;

static void *adder(void *arg) {
  (void)arg;
  pthread_spin_lock(&sl);
  total++;
  pthread_spin_unlock(&sl);
  return 0;
}

static void *trier(void *arg) {
  (void)arg;
  int ok = pthread_spin_trylock(&sl) == 0;
#ifdef BUG
  total++;
  atomic_store(&got, 1);
#else
  if (ok) {
    total++;
    atomic_store(&got, 1);
  }
#endif
  if (ok)
    pthread_spin_unlock(&sl);
  return 0;
}

int main(void) {
  pthread_t t[3];
  pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&t[0], 0, adder, 0);
  pthread_create(&t[1], 0, adder, 0);
  pthread_create(&t[2], 0, trier, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(total == 2 + atomic_load(&got));
  pthread_spin_destroy(&sl);
  return 0;
}
