// Peterson's filter lock for three threads (levels 1..2): a thread
// climbs a level by announcing it, making itself the level's victim,
// and waiting while another thread is at that level or above and it is
// still the victim. All accesses seq_cst: mutual exclusion, so the
// plain counter in the critical section never loses an update.
// Default: PASS under every model.
// -DBUG: release stores and acquire loads (no store-load order): two
// threads can pass a level together, so the counter races (RACE under
// rc11 and imm) and loses an update under x86, power and riscv (FAIL);
// sc keeps the order (PASS), and so does aarch64, whose release store
// then acquire load (STLR; LDAR) are ordered (PASS).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define T 3
#ifdef BUG
#define ST memory_order_release
#define LD memory_order_acquire
#else
#define ST memory_order_seq_cst
#define LD memory_order_seq_cst
#endif

static atomic_int level[T];
static atomic_int victim[T];
static int counter;

static void lock(int me) {
  for (int l = 1; l < T; l++) {
    atomic_store_explicit(&level[me], l, ST);
    atomic_store_explicit(&victim[l], me, ST);
    for (int k = 0; k < T; k++) {
      if (k == me)
        continue;
      while (atomic_load_explicit(&level[k], LD) >= l && atomic_load_explicit(&victim[l], LD) == me)
        ;
    }
  }
}

static void unlock(int me) { atomic_store_explicit(&level[me], 0, memory_order_release); }

static void *worker(void *arg) {
  int me = (int)(long)arg;
  lock(me);
  counter++;
  unlock(me);
  return 0;
}

int main(void) {
  pthread_t t[T];
  for (long i = 0; i < T; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < T; i++)
    pthread_join(t[i], 0);
  assert(counter == T);
  return 0;
}
