// A hash table with lock striping: NBUCKET buckets of open-addressed
// slots {key, value}, a mutex per stripe covering the buckets whose
// index is equal modulo NSTRIPE; the bucket is key % NBUCKET (an index
// computed at run time). Two threads insert keys that collide in one
// bucket and one thread inserts elsewhere; main looks every key up.
// Default: PASS under every model.
// -DBUG: the stripe is computed from the key instead of the bucket, so
// the two colliding keys take different stripe locks for one bucket:
// RACE under rc11 and imm, and a lost insertion (FAIL) under the others.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

#define NBUCKET 4
#define NSLOT 2
#define NSTRIPE 3

struct slot {
  uint32_t key; /* 0: empty */
  uint64_t value;
};
static struct slot table[NBUCKET][NSLOT];
static pthread_mutex_t stripe[NSTRIPE] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

static unsigned bucket_of(uint32_t key) { return key % NBUCKET; }

static pthread_mutex_t *lock_of(uint32_t key) {
#ifdef BUG
  return &stripe[key % NSTRIPE];
#else
  return &stripe[bucket_of(key) % NSTRIPE];
#endif
}

static int insert(uint32_t key, uint64_t value) {
  unsigned b = bucket_of(key);
  pthread_mutex_t *m = lock_of(key);
  int ok = 0;
  pthread_mutex_lock(m);
  for (int i = 0; i < NSLOT; i++)
    if (table[b][i].key == 0) {
      table[b][i].key = key;
      table[b][i].value = value;
      ok = 1;
      break;
    }
  pthread_mutex_unlock(m);
  return ok;
}

static uint64_t lookup(uint32_t key) {
  unsigned b = bucket_of(key);
  for (int i = 0; i < NSLOT; i++)
    if (table[b][i].key == key)
      return table[b][i].value;
  return 0;
}

static void *inserter(void *arg) {
  uint32_t key = (uint32_t)(uintptr_t)arg;
  assert(insert(key, (uint64_t)key * 1000));
  return 0;
}

int main(void) {
  pthread_t t[3];
  /* 5 and 13 share bucket 1 (stripe 1), but 5 % 3 = 2 and 13 % 3 = 1 */
  static const uint32_t keys[3] = {5, 13, 6};
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, inserter, (void *)(uintptr_t)keys[i]);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  for (int i = 0; i < 3; i++)
    assert(lookup(keys[i]) == (uint64_t)keys[i] * 1000);
  return 0;
}
