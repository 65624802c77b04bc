// An _Atomic struct of 12 bytes: not lock-free on x86-64, so clang calls
// libatomic's __atomic_load and __atomic_store (a lock inside libatomic
// makes them atomic). A writer stores {1,1,1} then {2,2,2}; the reader
// loads it and checks the three fields agree. Default: PASS everywhere.
// -D BUG: the reader reads the fields of a plain struct written field by
// field: RACE under rc11/imm, FAIL elsewhere. (Link natively with
// -latomic.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct triple {
  int x, y, z;
};

#ifdef BUG
static struct triple t;
#define STORE(v) (t.x = (v).x, t.y = (v).y, t.z = (v).z)
#define LOAD() (t)
#else
static _Atomic struct triple t;
#define STORE(v) atomic_store(&t, (v))
#define LOAD() atomic_load(&t)
#endif

static void *writer(void *arg) {
  (void)arg;
  struct triple one = {1, 1, 1}, two = {2, 2, 2};
  STORE(one);
  STORE(two);
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  struct triple v = LOAD();
  assert(v.x == v.y && v.y == v.z);
  pthread_join(w, 0);
  return 0;
}
