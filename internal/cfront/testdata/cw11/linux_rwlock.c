// A reader-writer lock on one biased counter, as Linux's old
// arch_rwlock: the counter starts at BIAS; a reader takes it by
// fetch_sub(1) and backs out if the result is negative; a writer takes it
// by fetch_sub(BIAS) and backs out unless the result is 0. Readers and
// writer unlock by adding back (release). Two readers check a two-field
// record a writer updates.
// Default: PASS under every model.
// -D BUG: the writer's lock is a relaxed fetch_sub: it no longer
// synchronizes with a reader's unlock, so the writer's writes race with
// that reader's reads (RACE under rc11 and imm). On the hardware targets
// the reader's loads come before its release unlock, and the writer's
// stores depend (control) on the value its fetch_sub read: PASS under
// sc, x86, aarch64, power, riscv.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define BIAS 0x100
static atomic_int lock = BIAS;
static int x, y;

#ifdef BUG
#define WLOCK memory_order_relaxed
#else
#define WLOCK memory_order_acquire
#endif

static void read_lock(void) {
  for (;;) {
    if (atomic_fetch_sub_explicit(&lock, 1, memory_order_acquire) - 1 >= 0)
      return;
    atomic_fetch_add_explicit(&lock, 1, memory_order_relaxed);
    while (atomic_load_explicit(&lock, memory_order_relaxed) <= 0)
      ;
  }
}

static void write_lock(void) {
  for (;;) {
    if (atomic_fetch_sub_explicit(&lock, BIAS, WLOCK) - BIAS == 0)
      return;
    atomic_fetch_add_explicit(&lock, BIAS, memory_order_relaxed);
    while (atomic_load_explicit(&lock, memory_order_relaxed) != BIAS)
      ;
  }
}

static void *reader(void *arg) {
  (void)arg;
  read_lock();
  int a = x, b = y;
  atomic_fetch_add_explicit(&lock, 1, memory_order_release);
  assert(a == b);
  return 0;
}

static void *writer(void *arg) {
  (void)arg;
  write_lock();
  x = 1;
  y = 1;
  atomic_fetch_add_explicit(&lock, BIAS, memory_order_release);
  return 0;
}

int main(void) {
  pthread_t r1, r2, w;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&r2, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r1, 0);
  pthread_join(r2, 0);
  return 0;
}
