// A sense-reversing barrier built from atomics for three threads, used
// twice. Each thread keeps its local sense in a _Thread_local variable;
// the last to arrive (fetch_sub acq_rel reaching 0) resets the count and
// flips the global sense (release); the others spin on it (acquire).
// Before each barrier a thread writes its own slot (plain); after it, it
// reads its neighbour's. PASS everywhere. -DBUG: the waiters spin with
// relaxed loads: RACE under rc11/imm; FAIL under aarch64, power, riscv;
// PASS under sc and x86.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef BUG
#define WAIT memory_order_relaxed
#else
#define WAIT memory_order_acquire
#endif
#define N 3
atomic_int count = N;
atomic_int sense;
_Thread_local int local_sense;
int slot[N];
static void barrier(void) {
  local_sense = !local_sense;
  if (atomic_fetch_sub_explicit(&count, 1, memory_order_acq_rel) == 1) {
    atomic_store_explicit(&count, N, memory_order_relaxed);
    atomic_store_explicit(&sense, local_sense, memory_order_release);
  } else {
    while (atomic_load_explicit(&sense, WAIT) != local_sense)
      ;
  }
}
void *worker(void *arg) {
  int me = (int)(long)arg;
  slot[me] = 1;
  barrier();
  int seen = slot[(me + 1) % N];
  barrier();
  slot[me] = 2;
  assert(seen == 1);
  return NULL;
}
int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  return 0;
}
