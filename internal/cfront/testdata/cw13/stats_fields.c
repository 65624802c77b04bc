// A struct of atomic counters, each bumped with relaxed fetch_add
// (statistics: no order needed, only atomicity); after the joins
// (which synchronise, C11 7.26.5.6) the totals are exact.
// Default: PASS under every model.
// -D BUG: one field is a plain int bumped with ++: a race under rc11
// and imm (R) and a lost update under the others, sc included (FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct stats {
  atomic_int hits;
#ifdef BUG
  int misses;
#else
  atomic_int misses;
#endif
};

static struct stats st;

static void *worker(void *a) {
  (void)a;
  atomic_fetch_add_explicit(&st.hits, 1, memory_order_relaxed);
#ifdef BUG
  st.misses++;
#else
  atomic_fetch_add_explicit(&st.misses, 1, memory_order_relaxed);
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(st.hits == 2 && st.misses == 2);
  return 0;
}
