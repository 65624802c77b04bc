// GCC's __atomic_fetch_max/min on narrow types, signed and unsigned,
// after fetch_add/fetch_sub that wrap (the values must stay in their
// width: an unsigned max of 44 (300 wrapped) and 200 is 200; a signed max
// of -56 (200 wrapped) and 50 is 50). Two threads race a fetch_max and a
// fetch_min on one uint8_t; every order ends at a value the assertions
// list.
// Default: PASS under every model.
// -D BUG: the unsigned maximum is asserted to be 44 (as if the value were
// compared as a wider or signed number): FAIL under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

static _Atomic uint8_t u = 150;
static _Atomic int8_t s = 100;
static _Atomic uint8_t shared = 100;

static void *maxer(void *arg) {
  (void)arg;
  __atomic_fetch_max((uint8_t *)&shared, 250, __ATOMIC_SEQ_CST);
  return 0;
}
static void *miner(void *arg) {
  (void)arg;
  __atomic_fetch_min((uint8_t *)&shared, 5, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  atomic_fetch_add(&u, 150);
  __atomic_fetch_max((uint8_t *)&u, 200, __ATOMIC_SEQ_CST);
#ifdef BUG
  assert(atomic_load(&u) == 44);
#else
  assert(atomic_load(&u) == 200);
#endif
  atomic_fetch_add(&s, 100);
  __atomic_fetch_max((int8_t *)&s, 50, __ATOMIC_SEQ_CST);
  assert(atomic_load(&s) == 50);
  atomic_store(&s, -100);
  atomic_fetch_sub(&s, 100);
  __atomic_fetch_min((int8_t *)&s, -50, __ATOMIC_SEQ_CST);
  assert(atomic_load(&s) == -50);
  pthread_t a, b;
  pthread_create(&a, 0, maxer, 0);
  pthread_create(&b, 0, miner, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  uint8_t v = atomic_load(&shared);
  assert(v == 5 || v == 250);
  return 0;
}
