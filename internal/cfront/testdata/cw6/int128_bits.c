// 128-bit integers and bit operations: each thread builds a 128-bit
// mask from its id (shifts past 64, ors, a multiplication that carries
// into the high half), stores its halves under a mutex into a shared
// unsigned __int128, and main checks the union of the masks with
// __builtin_popcountll and __builtin_ctzll on the halves, rotations and
// a byte swap. PASS natively. Musket keeps values in 64 bits: it must
// refuse the program by name (it gave a wrong FAIL before).
// -DBUG: the shared mask is or-ed without the mutex (RACE under rc11
// and imm; a thread's bits can be lost under sc and the targets: FAIL).
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
typedef unsigned __int128 u128;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static u128 mask;
static void *worker(void *arg) {
  int id = (int)(long)arg;
  u128 mine = ((u128)1 << (64 + id)) | ((u128)1 << id);
  u128 big = (u128)0xFFFFFFFFFFFFFFFFull * 2; /* carries into the high half */
  assert((uint64_t)(big >> 64) == 1);
#ifdef BUG
  mask |= mine;
#else
  pthread_mutex_lock(&m);
  mask |= mine;
  pthread_mutex_unlock(&m);
#endif
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)(i + 1));
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  uint64_t lo = (uint64_t)mask, hi = (uint64_t)(mask >> 64);
  assert(__builtin_popcountll(lo) == 2 && __builtin_popcountll(hi) == 2);
  assert(__builtin_ctzll(lo) == 1 && __builtin_ctzll(hi) == 1);
  uint32_t r = (uint32_t)lo;
  assert(((r << 4) | (r >> 28)) == 0x60);
  assert(__builtin_bswap32(r) == 0x06000000u);
  return 0;
}
