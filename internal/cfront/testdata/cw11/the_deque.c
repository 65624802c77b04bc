// The THE protocol of Cilk-5's work-stealing deque (Frigo, Leiserson,
// Randall, "The Implementation of the Cilk-5 Multithreaded Language",
// PLDI 1998): the owner takes from the tail without a lock unless it
// meets a thief; thieves take from the head under a lock. take: T--,
// fence (seq_cst), read H; if H > T, restore T and retry under the lock.
// steal (locked): H++, fence, read T; if H > T, restore H and fail.
// The owner pushes two tasks then takes twice; one thief steals once.
// Every task is done exactly once.
// Default: PASS under every model.
// -D BUG: take has no fence: the owner's read of H can pass its store to
// T and the thief's read of T can pass its store to H (store buffering):
// both take the last task: FAIL under rc11, imm, x86, aarch64, power,
// riscv; PASS under sc.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int H, T;
static int tasks[2];
static atomic_int done[2];
static pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;

static void run(int i) { atomic_fetch_add(&done[tasks[i] - 1], 1); }

static int take(void) {
  int t = atomic_load_explicit(&T, memory_order_relaxed) - 1;
  atomic_store_explicit(&T, t, memory_order_relaxed);
#ifndef BUG
  atomic_thread_fence(memory_order_seq_cst);
#endif
  if (atomic_load_explicit(&H, memory_order_relaxed) > t) {
    atomic_store_explicit(&T, t + 1, memory_order_relaxed);
    pthread_mutex_lock(&L);
    atomic_store_explicit(&T, t, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&H, memory_order_relaxed) > t) {
      atomic_store_explicit(&T, t + 1, memory_order_relaxed);
      pthread_mutex_unlock(&L);
      return -1;
    }
    pthread_mutex_unlock(&L);
  }
  return t;
}

static void *thief(void *arg) {
  (void)arg;
  pthread_mutex_lock(&L);
  int h = atomic_load_explicit(&H, memory_order_relaxed);
  atomic_store_explicit(&H, h + 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
  if (h + 1 > atomic_load_explicit(&T, memory_order_relaxed)) {
    atomic_store_explicit(&H, h, memory_order_relaxed);
    pthread_mutex_unlock(&L);
    return 0;
  }
  pthread_mutex_unlock(&L);
  run(h);
  return 0;
}

int main(void) {
  tasks[0] = 1;
  tasks[1] = 2;
  atomic_store_explicit(&T, 2, memory_order_release);
  pthread_t t;
  pthread_create(&t, 0, thief, 0);
  for (int k = 0; k < 2; k++) {
    int i = take();
    if (i >= 0)
      run(i);
  }
  pthread_join(t, 0);
  assert(atomic_load(&done[0]) == 1 && atomic_load(&done[1]) == 1);
  return 0;
}
