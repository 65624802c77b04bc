// A big-reader lock in the style of ck_brlock: each reader has its own
// slot; a reader raises its slot (seq_cst exchange), checks the writer
// flag, and backs off if a writer is in; the writer takes the writer
// flag with a CAS and then waits for every reader slot to drop. The
// reader reads the two halves of a record the writer updates.
// Default: seq_cst slots and flag: the reader sees both halves of one
// version: PASS under every model.
// -D BUG: the reader raises its slot with a release store (no store-load
// order before its seq_cst check of the writer flag in C11): the reader
// and the writer may both pass (store buffering): a race under rc11/imm;
// FAIL under x86 (a plain MOV each: the store buffer lets the load pass);
// sc PASS; aarch64, power, riscv PASS (clang's code orders it: STLR then
// LDAR stay in order on ARMv8, and a seq_cst load starts with a full
// fence on Power, hwsync, and RISC-V, fence rw,rw).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define READERS 2

static atomic_int writer;
static atomic_int slot[READERS];
static int lo, hi;

static void read_lock(int r) {
  for (;;) {
#ifdef BUG
    atomic_store_explicit(&slot[r], 1, memory_order_release);
#else
    atomic_exchange(&slot[r], 1);
#endif
    if (!atomic_load(&writer))
      return;
    atomic_store_explicit(&slot[r], 0, memory_order_release);
    while (atomic_load_explicit(&writer, memory_order_relaxed))
      ;
  }
}

static void read_unlock(int r) { atomic_store_explicit(&slot[r], 0, memory_order_release); }

static void write_lock(void) {
  int z = 0;
  while (!atomic_compare_exchange_strong(&writer, &z, 1)) {
    z = 0;
  }
  for (int r = 0; r < READERS; r++)
    while (atomic_load(&slot[r]))
      ;
}

static void write_unlock(void) { atomic_store_explicit(&writer, 0, memory_order_release); }

static void *reader(void *arg) {
  int r = (int)(long)arg;
  read_lock(r);
  int a = lo, b = hi;
  read_unlock(r);
  assert(a == b);
  return 0;
}

static void *writer_fn(void *arg) {
  (void)arg;
  write_lock();
  lo = 1;
  hi = 1;
  write_unlock();
  return 0;
}

int main(void) {
  pthread_t w, r0;
  pthread_create(&w, 0, writer_fn, 0);
  pthread_create(&r0, 0, reader, (void *)0);
  pthread_join(w, 0);
  pthread_join(r0, 0);
  return 0;
}
