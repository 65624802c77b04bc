// A reader-writer spin lock in one atomic word: -1 held by the writer,
// n > 0 held by n readers. The writer CAS-es 0 to -1 and writes a pair
// of plain fields; two readers CAS n to n+1 (n >= 0) and check that the
// pair is consistent. Release on every unlock, acquire on every lock.
// PASS everywhere. -DBUG: the writer's unlock is a relaxed store: RACE
// under rc11/imm; FAIL under aarch64, power, riscv; PASS under sc, x86.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef BUG
#define WREL memory_order_relaxed
#else
#define WREL memory_order_release
#endif
atomic_int rw;
int x, y;
static void read_lock(void) {
  int n = atomic_load_explicit(&rw, memory_order_relaxed);
  for (;;) {
    if (n >= 0 && atomic_compare_exchange_weak_explicit(&rw, &n, n + 1, memory_order_acquire, memory_order_relaxed))
      return;
    if (n < 0)
      n = atomic_load_explicit(&rw, memory_order_relaxed);
  }
}
static void read_unlock(void) { atomic_fetch_sub_explicit(&rw, 1, memory_order_release); }
static void write_lock(void) {
  int z = 0;
  while (!atomic_compare_exchange_weak_explicit(&rw, &z, -1, memory_order_acquire, memory_order_relaxed))
    z = 0;
}
static void write_unlock(void) { atomic_store_explicit(&rw, 0, WREL); }
void *writer(void *arg) {
  write_lock();
  x = 1;
  y = 1;
  write_unlock();
  return NULL;
}
void *reader(void *arg) {
  read_lock();
  int a = x, b = y;
  read_unlock();
  assert(a == b);
  return NULL;
}
int main(void) {
  pthread_t w, r[2];
  pthread_create(&r[0], NULL, reader, NULL);
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r[1], NULL, reader, NULL);
  pthread_join(w, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(r[i], NULL);
  return 0;
}
