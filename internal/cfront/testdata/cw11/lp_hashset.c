// A lock-free hash set with linear probing (the shape of Dartagnan's
// hash_table benchmark, written anew): keys live in an array of atomics,
// 0 meaning empty; insert probes from hash(k) and claims the first empty
// slot with a CAS (or stops at k). Two threads insert two keys each, two
// of them with the same hash; afterwards every key is found exactly once.
// Default: PASS under every model.
// -D BUG: insert claims with a load and a store instead of a CAS: two
// inserters may both see a slot empty and one key is overwritten: FAIL
// under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define SIZE 4
static atomic_int keys[SIZE];

static unsigned hash(int k) { return (unsigned)k % 3; }

static void insert(int k) {
  for (unsigned i = 0, h = hash(k); i < SIZE; i++, h = (h + 1) % SIZE) {
    int cur = atomic_load(&keys[h]);
    if (cur == k)
      return;
    if (cur != 0)
      continue;
#ifdef BUG
    atomic_store(&keys[h], k);
    return;
#else
    int zero = 0;
    if (atomic_compare_exchange_strong(&keys[h], &zero, k) || zero == k)
      return;
#endif
  }
}

static void *t1(void *arg) { (void)arg; insert(3); insert(4); return 0; }
static void *t2(void *arg) { (void)arg; insert(6); insert(4); return 0; }

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  int want[3] = {3, 4, 6};
  for (int j = 0; j < 3; j++) {
    int n = 0;
    for (int i = 0; i < SIZE; i++)
      n += atomic_load(&keys[i]) == want[j];
    assert(n == 1);
  }
  return 0;
}
