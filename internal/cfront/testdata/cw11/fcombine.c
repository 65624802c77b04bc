// Flat combining (Hendler, Incze, Shavit, Tzafrir, "Flat Combining and
// the Synchronization-Parallelism Tradeoff", SPAA 2010), small: each
// thread writes its argument into its own request slot and raises the
// slot's pending flag (release); whoever takes the combiner lock serves
// every pending request (reads the argument after an acquire load of
// the flag), adds it to the shared total, writes the answer and clears
// the flag (release); a thread that finds the lock taken and its flag
// already cleared reads its answer (after the acquire load), otherwise it
// waits for the lock and combines itself.
// Default: PASS under every model.
// -D BUG: the combiner reads a slot's argument before looking at its
// flag: a race on the argument (RACE under rc11 and imm); it may add a 0
// for a request it then serves: a lost add (FAIL under sc, x86,
// aarch64, power, riscv).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 2
struct slot { int arg; int ans; atomic_int pending; };
static struct slot slots[N];
static pthread_mutex_t comb = PTHREAD_MUTEX_INITIALIZER;
static int total;

static void serve(void) {
  for (int i = 0; i < N; i++) {
#ifdef BUG
    int a = slots[i].arg;
    if (atomic_load_explicit(&slots[i].pending, memory_order_acquire)) {
#else
    if (atomic_load_explicit(&slots[i].pending, memory_order_acquire)) {
      int a = slots[i].arg;
#endif
      total += a;
      slots[i].ans = total;
      atomic_store_explicit(&slots[i].pending, 0, memory_order_release);
    }
  }
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  slots[id].arg = id + 1;
  atomic_store_explicit(&slots[id].pending, 1, memory_order_release);
  if (pthread_mutex_trylock(&comb) != 0) {
    /* Someone combines: wait until it served us, or take the lock. */
    if (atomic_load_explicit(&slots[id].pending, memory_order_acquire))
      pthread_mutex_lock(&comb);
    else
      goto served;
  }
  serve();
  pthread_mutex_unlock(&comb);
served:;
  int ans = slots[id].ans;
  assert(ans >= id + 1 && ans <= 3);
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  assert(total == 3);
  return 0;
}
