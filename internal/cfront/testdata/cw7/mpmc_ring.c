// A bounded multi-producer multi-consumer ring in D. Vyukov's style:
// each cell carries a sequence number; a producer claims position pos by
// CAS on the enqueue index when cell[pos % N].seq == pos, writes the
// value and sets seq = pos + 1 (release); a consumer claims pos when
// seq == pos + 1, reads the value and sets seq = pos + N (release).
// Capacity 2, two producers (one value each), one consumer taking
// what it finds (at most two tries).
// Default: a cell is an 8-byte sequence number and a 4-byte value, and
// the cell is chosen by an index computed at run time: Musket refuses it
// as a mixed-size access (the offset's analysis does not keep the
// element's stride; a clear refusal, not fixed here).
// -DWIDE (an 8-byte value): PASS under every model (every value taken is one that was
// put, none twice).
// -DWIDE -DBUG: the producer's sequence store is relaxed: the consumer's read
// of the value races with its write (RACE under rc11 and imm); sc and
// x86 keep the order (PASS); aarch64, power and riscv can show the
// sequence number before the value (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define N 2
#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

#ifdef WIDE
typedef long val_t;
#else
typedef int val_t;
#endif
struct cell {
  atomic_size_t seq;
  val_t val;
};
static struct cell ring[N];
static atomic_size_t enq, deq;

static int put(int v) {
  size_t pos = atomic_load_explicit(&enq, memory_order_relaxed);
  struct cell *c = &ring[pos % N];
  size_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
  if (seq != pos)
    return 0; /* full or taken: give up (one try) */
  if (!atomic_compare_exchange_strong_explicit(&enq, &pos, pos + 1, memory_order_relaxed, memory_order_relaxed))
    return 0;
  c->val = v;
  atomic_store_explicit(&c->seq, pos + 1, PUB);
  return 1;
}

static int get(val_t *v) {
  size_t pos = atomic_load_explicit(&deq, memory_order_relaxed);
  struct cell *c = &ring[pos % N];
  size_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
  if (seq != pos + 1)
    return 0;
  if (!atomic_compare_exchange_strong_explicit(&deq, &pos, pos + 1, memory_order_relaxed, memory_order_relaxed))
    return 0;
  *v = c->val;
  atomic_store_explicit(&c->seq, pos + N, memory_order_release);
  return 1;
}

static void *producer(void *arg) {
  put((int)(long)arg);
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  int seen = 0;
  val_t v;
  for (int i = 0; i < 2; i++)
    if (get(&v)) {
      assert(v == 10 || v == 20);
      assert(!(seen & (v / 10)));
      seen |= v / 10;
    }
  return 0;
}

int main(void) {
  for (size_t i = 0; i < N; i++)
    atomic_init(&ring[i].seq, i);
  pthread_t p1, p2, c;
  pthread_create(&p1, 0, producer, (void *)10L);
  pthread_create(&p2, 0, producer, (void *)20L);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p1, 0);
  pthread_join(p2, 0);
  pthread_join(c, 0);
  return 0;
}
