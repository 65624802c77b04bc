// Anderson's array-based queue lock ("The Performance of Spin Lock
// Alternatives for Shared-Memory Multiprocessors", IEEE TPDS 1990):
// a ticket from fetch_add picks a slot; a thread spins on its slot's flag
// (acquire) and hands over by clearing its flag and setting the next
// slot's (release). Three threads increment a plain counter once each.
// Default: PASS under every model.
// -D BUG: the hand-over store is relaxed: the next holder's read of the
// counter is not ordered after the increment: RACE under rc11 and imm; a
// lost update (FAIL) under aarch64, power, riscv; sc and x86 PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 3
static atomic_int flags[N] = {1, 0, 0};
static atomic_uint next_ticket;
static int counter;

#ifdef BUG
#define HANDOVER memory_order_relaxed
#else
#define HANDOVER memory_order_release
#endif

static void *worker(void *arg) {
  (void)arg;
  unsigned slot = atomic_fetch_add_explicit(&next_ticket, 1, memory_order_relaxed) % N;
  while (!atomic_load_explicit(&flags[slot], memory_order_acquire))
    ;
  counter++;
  atomic_store_explicit(&flags[slot], 0, memory_order_relaxed);
  atomic_store_explicit(&flags[(slot + 1) % N], 1, HANDOVER);
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  assert(counter == N);
  return 0;
}
