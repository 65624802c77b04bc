// Thread functions from a table: an array of {name, start routine,
// argument} records, threads created in a loop over the table (the
// routine read from memory, not named at the call), plus a routine
// chosen at run time by a function-pointer variable. The routines are a
// producer and two consumers of a counter guarded by a mutex; each
// consumer takes one unit, waiting on a condition variable. PASS
// everywhere.
// -DBUG: the producer adds its units without the mutex (RACE under rc11 and imm, FAIL under sc and the
// targets).
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int units, taken;
static void *producer(void *arg) {
  int n = (int)(intptr_t)arg;
  for (int i = 0; i < n; i++) {
#ifdef BUG
    units++;
    pthread_mutex_lock(&m);
#else
    pthread_mutex_lock(&m);
    units++;
#endif
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
  }
  return (void *)(intptr_t)n;
}
static void *consumer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  while (units == 0)
    pthread_cond_wait(&cv, &m);
  units--;
  taken++;
  pthread_mutex_unlock(&m);
  return (void *)1;
}
struct spec {
  const char *name;
  void *(*fn)(void *);
  void *arg;
};
static const struct spec table[] = {
    {"prod", producer, (void *)(intptr_t)2},
    {"cons", consumer, 0},
};
static volatile int mode = 1;
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, table[i].fn, table[i].arg);
  void *(*late)(void *) = mode == 0 ? producer : consumer;
  pthread_create(&t[2], 0, late, 0);
  intptr_t sum = 0;
  for (int i = 0; i < 3; i++) {
    void *r;
    pthread_join(t[i], &r);
    sum += (intptr_t)r;
  }
  assert(sum == 4);
  assert(units == 0 && taken == 2);
  return 0;
}
