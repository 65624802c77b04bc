// A copy-on-write array (the shape of ck_array's commit): the writer
// copies the live buffer into a spare one, changes the copy, and
// publishes it by storing the pointer; readers load the pointer and read
// a consistent snapshot (sum of the entries is constant). The old buffer
// is not reused here.
// Default: the publication is a release store, the readers' load
// acquire: PASS under every model.
// -D BUG: the publication is relaxed: a reader may see the new pointer
// and old contents of the copy: a race under rc11/imm; sc and x86 PASS;
// aarch64, power, riscv FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

#define N 3

static int buf_a[N] = {5, 5, 5};
static int buf_b[N];
static _Atomic(int *) live = buf_a;

static void *writer(void *arg) {
  (void)arg;
  int *old = atomic_load_explicit(&live, memory_order_relaxed);
  memcpy(buf_b, old, sizeof buf_b);
  buf_b[0] += 2;
  buf_b[2] -= 2;
  atomic_store_explicit(&live, buf_b, PUB);
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  int *cur = atomic_load_explicit(&live, memory_order_acquire);
  int sum = 0;
  for (int i = 0; i < N; i++)
    sum += cur[i];
  assert(sum == 15);
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
