// Two fields of one struct, each guarded by its own mutex (the shape of
// goblint's regression tests on struct-field races: the race detector
// must tell fields apart). Thread A updates stats.hits under hit_lock,
// thread B stats.misses under miss_lock.
// Default: PASS under every model (no race: different fields).
// -D BUG: thread B also bumps hits, under miss_lock: a race on hits
// under rc11/imm, FAIL under the others (a lost update).
#include <assert.h>
#include <pthread.h>

struct stats {
  int hits;
  int misses;
};

static struct stats stats;
static pthread_mutex_t hit_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t miss_lock = PTHREAD_MUTEX_INITIALIZER;

static void *hitter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&hit_lock);
  stats.hits++;
  pthread_mutex_unlock(&hit_lock);
  return 0;
}

static void *misser(void *arg) {
  (void)arg;
  pthread_mutex_lock(&miss_lock);
  stats.misses++;
#ifdef BUG
  stats.hits++;
#endif
  pthread_mutex_unlock(&miss_lock);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, hitter, 0);
  pthread_create(&b, 0, misser, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
#ifdef BUG
  assert(stats.hits == 2 && stats.misses == 1);
#else
  assert(stats.hits == 1 && stats.misses == 1);
#endif
  return 0;
}
