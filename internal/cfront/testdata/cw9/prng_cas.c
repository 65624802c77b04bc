// SV-COMP's rand_cas shape (pthread-ext 08_rand_cas): a hand-written
// pseudo-random generator whose state threads advance with a
// compare-and-swap, so no two threads get the same number. Default:
// PASS everywhere. -D BUG: the state is read then written (no CAS): two
// threads may take the same number (FAIL everywhere).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_uint seed = 1;
static unsigned got[2];

static unsigned next_of(unsigned s) { return (s * 1103515245u + 12345u) % 2147483648u; }

static void *draw(void *arg) {
  long id = (long)arg;
  unsigned s, n;
#ifdef BUG
  s = atomic_load(&seed);
  n = next_of(s);
  atomic_store(&seed, n);
#else
  s = atomic_load(&seed);
  do {
    n = next_of(s);
  } while (!atomic_compare_exchange_weak(&seed, &s, n));
#endif
  got[id] = n;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, draw, (void *)0L);
  pthread_create(&b, 0, draw, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(got[0] != got[1]);
  return 0;
}
