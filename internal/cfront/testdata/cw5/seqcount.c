// A Linux seqcount with the kernel's names, defined over GCC __atomic
// builtins as user-space ports do: READ_ONCE/WRITE_ONCE relaxed,
// smp_wmb a release fence, smp_rmb an acquire fence. One writer updates
// a two-field record once; the reader reads it once and, when the
// sequence says the read was not torn, checks both fields agree. PASS
// under every model.
// -DBUG: read_seqcount_retry without its smp_rmb: the re-read of the
// sequence can be satisfied before the data reads (FAIL under rc11, imm
// and aarch64; x86 and sc PASS).
#include <pthread.h>
#include <assert.h>
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
typedef struct {
  unsigned sequence;
} seqcount_t;
static seqcount_t sc;
static struct {
  int lo, hi;
} rec;
static void write_seqcount_begin(seqcount_t *s) {
  WRITE_ONCE(s->sequence, s->sequence + 1);
  smp_wmb();
}
static void write_seqcount_end(seqcount_t *s) {
  smp_wmb();
  WRITE_ONCE(s->sequence, s->sequence + 1);
}
static unsigned read_seqcount_begin(seqcount_t *s) {
  unsigned r = READ_ONCE(s->sequence);
  smp_rmb();
  return r;
}
static int read_seqcount_retry(seqcount_t *s, unsigned start) {
#ifndef BUG
  smp_rmb();
#endif
  return (start & 1) || READ_ONCE(s->sequence) != start;
}
static void *writer(void *arg) {
  write_seqcount_begin(&sc);
  WRITE_ONCE(rec.lo, 5);
  WRITE_ONCE(rec.hi, 5);
  write_seqcount_end(&sc);
  return arg;
}
static void *reader(void *arg) {
  unsigned s = read_seqcount_begin(&sc);
  int lo = READ_ONCE(rec.lo);
  int hi = READ_ONCE(rec.hi);
  if (!read_seqcount_retry(&sc, s))
    assert(lo == hi);
  return arg;
}
int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return 0;
}
