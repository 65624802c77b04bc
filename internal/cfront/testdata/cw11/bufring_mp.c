// A multi-producer single-consumer ring in the shape of FreeBSD's
// buf_ring: a producer reserves a slot by CAS on prod_head, writes it,
// waits until prod_tail reaches its reservation (earlier producers have
// published; an acquire load, so that their slot writes happen before its
// own publication: with a relaxed wait the second producer's store of
// prod_tail would not carry the first one's slot, a race Musket found in
// the first version of this program), then publishes with a release
// store of prod_tail. The
// consumer reads prod_tail (acquire) and takes the slots below it. Two
// producers, one item each, and a consumer that takes both.
// Default: PASS under every model.
// -D BUG: a producer publishes without waiting for the earlier one: the
// consumer may read a slot the other producer has not written yet (its
// write races with the read: RACE under rc11 and imm; the read sees 0:
// FAIL under sc, x86, aarch64, power, riscv).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define SIZE 4
static int ring[SIZE];
static atomic_uint prod_head, prod_tail;

static void *producer(void *arg) {
  int v = (int)(long)arg;
  unsigned h = atomic_load_explicit(&prod_head, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(&prod_head, &h, h + 1,
                                                memory_order_acquire, memory_order_relaxed))
    ;
  ring[h % SIZE] = v;
#ifndef BUG
  while (atomic_load_explicit(&prod_tail, memory_order_acquire) != h)
    ;
  atomic_store_explicit(&prod_tail, h + 1, memory_order_release);
#else
  unsigned t = atomic_load_explicit(&prod_tail, memory_order_relaxed);
  if (t < h + 1)
    atomic_store_explicit(&prod_tail, h + 1, memory_order_release);
#endif
  return 0;
}

int main(void) {
  pthread_t p1, p2;
  pthread_create(&p1, 0, producer, (void *)10L);
  pthread_create(&p2, 0, producer, (void *)20L);
  int sum = 0;
  for (unsigned c = 0; c < 2; c++) {
    while (atomic_load_explicit(&prod_tail, memory_order_acquire) <= c)
      ;
    int v = ring[c % SIZE];
    assert(v == 10 || v == 20);
    sum += v;
  }
  assert(sum == 30);
  pthread_join(p1, 0);
  pthread_join(p2, 0);
  return 0;
}
