// Peterson's lock for three threads as a tournament (pthread-lit's
// Peterson generalised by a tree): threads 0 and 1 meet in a leaf lock,
// its winner meets thread 2 at the root. Each two-thread lock is
// Peterson's with seq_cst atomics (the flag store and the turn store
// must not pass the later loads: SB). The critical section updates a
// plain counter: mutual exclusion makes it race-free.
// Default: PASS under every model.
// -D BUG: the root lock's stores are release and its spin loads
// acquire: store-load reordering lets two threads into the section:
// a race under rc11 and imm (R), FAIL on x86, power and riscv; sc PASS,
// and aarch64 PASS: clang-14 makes them STLR and LDAR, which ARMv8
// keeps in order (its release and acquire are RCsc).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define ST memory_order_release
#define LD memory_order_acquire
#else
#define ST memory_order_seq_cst
#define LD memory_order_seq_cst
#endif

struct pet {
  atomic_int flag[2];
  atomic_int turn;
};

static struct pet leaf, root;
static int in_cs, total;

static void lock(struct pet *p, int me, int strong) {
  int other = 1 - me;
  atomic_store_explicit(&p->flag[me], 1, strong ? memory_order_seq_cst : ST);
  atomic_store_explicit(&p->turn, other, strong ? memory_order_seq_cst : ST);
  while (atomic_load_explicit(&p->flag[other], strong ? memory_order_seq_cst : LD) &&
         atomic_load_explicit(&p->turn, strong ? memory_order_seq_cst : LD) == other)
    ;
}

static void unlock(struct pet *p, int me) {
  atomic_store_explicit(&p->flag[me], 0, memory_order_release);
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  if (id < 2) {
    lock(&leaf, id, 1);
    lock(&root, 0, 0);
  } else {
    lock(&root, 1, 0);
  }
  in_cs++;
  assert(in_cs == 1);
  in_cs--;
  total++;
  if (id < 2) {
    unlock(&root, 0);
    unlock(&leaf, id);
  } else {
    unlock(&root, 1);
  }
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(total == 3);
  return 0;
}
