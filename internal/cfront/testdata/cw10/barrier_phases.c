// Two phases separated by a pthread_barrier of three threads: in phase 1
// each thread writes its slot; in phase 2 each reads its right
// neighbour's slot (which the barrier orders after the write) and stores
// the sum of the two. PTHREAD_BARRIER_SERIAL_THREAD is returned to
// exactly one thread. Default: PASS everywhere. -D BUG: thread 0 reads
// its neighbour before the barrier: RACE under rc11/imm; elsewhere it
// may read 0: FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 3
static pthread_barrier_t bar;
static int slot[N], sum[N];
static atomic_int serial;

static void *phase(void *arg) {
  int id = (int)(long)arg;
  slot[id] = id + 1;
#ifdef BUG
  int early = id == 0 ? slot[1] : 0;
#endif
  if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
    atomic_fetch_add(&serial, 1);
  int right = slot[(id + 1) % N];
#ifdef BUG
  if (id == 0)
    right = early;
#endif
  sum[id] = slot[id] + right;
  return 0;
}

int main(void) {
  pthread_barrier_init(&bar, 0, N);
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, phase, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  assert(sum[0] == 3 && sum[1] == 5 && sum[2] == 4 && serial == 1);
  pthread_barrier_destroy(&bar);
  return 0;
}
