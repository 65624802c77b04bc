// An _Atomic struct of 16 bytes (two longs): clang-14 lowers its loads
// and stores to the libatomic calls __atomic_load/__atomic_store
// (a lock inside libatomic, not lock-free on x86-64 without cx16). The
// reader must see both halves of one version. PASS everywhere (native:
// link with -latomic).
// Musket has no model of libatomic's locks: it must refuse the program
// by name, never check it as if the halves were separate.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
struct wide {
  long a, b;
};
static _Atomic struct wide w;
static void *writer(void *arg) {
  (void)arg;
  struct wide n = {2, 2};
  atomic_store(&w, n);
  return NULL;
}
int main(void) {
  pthread_t t;
  atomic_init(&w, ((struct wide){1, 1}));
  pthread_create(&t, NULL, writer, NULL);
  struct wide r = atomic_load(&w);
  assert(r.a == r.b);
  pthread_join(t, NULL);
  return 0;
}
