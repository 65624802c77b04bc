// An array of structs each holding an _Atomic state and plain payload
// (a slot table, as job pools keep): a producer claims a free slot by CAS
// on its state (FREE to BUSY), writes the payload, and marks it FULL with
// a release store; the consumer scans the table, takes FULL slots
// (acquire) and sums the payloads. Two producers, two slots, each
// producer claims one.
// Default: PASS under every model.
// -D BUG: a producer claims with a load and a store: both may claim the
// same slot and write its payload concurrently (RACE under rc11 and imm);
// one payload is lost (FAIL under sc, x86, aarch64, power, riscv).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

enum { FREE, BUSY, FULL };
struct slot { _Atomic int state; int payload; };
static struct slot table[2];

static void *producer(void *arg) {
  int v = (int)(long)arg;
  for (int i = 0; i < 2; i++) {
#ifdef BUG
    if (atomic_load(&table[i].state) != FREE)
      continue;
    atomic_store(&table[i].state, BUSY);
#else
    int expect = FREE;
    if (!atomic_compare_exchange_strong(&table[i].state, &expect, BUSY))
      continue;
#endif
    table[i].payload = v;
    atomic_store_explicit(&table[i].state, FULL, memory_order_release);
    return 0;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, (void *)3L);
  pthread_create(&b, 0, producer, (void *)4L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  int sum = 0;
  for (int i = 0; i < 2; i++)
    if (atomic_load_explicit(&table[i].state, memory_order_acquire) == FULL)
      sum += table[i].payload;
  assert(sum == 7);
  return 0;
}
