// Floating point in shared data: a double accumulator and a float
// scale factor under a mutex, an _Atomic double published with a
// release store (its bits are a 64-bit atomic), and -DLDBL: a long
// double (x87 80-bit) total. The values are exact in binary (halves and
// quarters), so the final checks are equalities. PASS everywhere.
// -DBUG: the accumulator is updated outside the mutex (RACE under rc11
// and imm; an update can be lost under sc and the targets: FAIL).
// Musket does not model floating point: it refuses by name.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static double acc;
static float scale = 0.5f;
static _Atomic double last;
#ifdef LDBL
static long double ltotal;
#endif
static void *worker(void *arg) {
  int k = (int)(long)arg;
  double v = k * 1.5;
#ifdef BUG
  acc += v;
  pthread_mutex_lock(&m);
#else
  pthread_mutex_lock(&m);
  acc += v;
#endif
  scale *= 2.0f;
#ifdef LDBL
  ltotal += (long double)v / 4;
#endif
  pthread_mutex_unlock(&m);
  atomic_store_explicit(&last, v, memory_order_release);
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)(i + 1));
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(acc == 4.5);
  assert(scale == 2.0f);
  double l = atomic_load_explicit(&last, memory_order_acquire);
  assert(l == 1.5 || l == 3.0);
#ifdef LDBL
  assert(ltotal == 1.125L);
#endif
  return 0;
}
