// Two mutexes of two kinds in one program: cfg_mu is recursive (a
// reload helper relocks it, and tries it with trylock, which for a
// recursive mutex its caller holds succeeds and counts), st_mu is a
// normal mutex guarding statistics.
// Default: PASS under every model (native: never fails).
// -DRELOCK: a worker locks the normal st_mu again while holding it:
//   it waits for itself forever (POSIX: deadlock). No verdict without
//   -liveness (PASS, as every deadlock); with -liveness, a thread waits
//   forever. Natively it hangs.
// -DBADUNLOCK: main unlocks the normal st_mu, which it never locked: POSIX
//   leaves it undefined; glibc releases it, so two workers may update stats
//   at once: RACE (rc11, imm), a lost update (FAIL) elsewhere; 0/200 natively.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

static pthread_mutex_t cfg_mu;
static pthread_mutex_t st_mu = PTHREAD_MUTEX_INITIALIZER;
static int cfg_gen;
static int stats;

static void reload(void) {
  pthread_mutex_lock(&cfg_mu);
  int r = pthread_mutex_trylock(&cfg_mu); /* ours: depth 3 */
  assert(r == 0);
  cfg_gen++;
  pthread_mutex_unlock(&cfg_mu);
  pthread_mutex_unlock(&cfg_mu);
}

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&cfg_mu);
  reload();
  int g = cfg_gen;
  pthread_mutex_unlock(&cfg_mu);
  pthread_mutex_lock(&st_mu);
#ifdef RELOCK
  pthread_mutex_lock(&st_mu);
#endif
  stats += g;
  pthread_mutex_unlock(&st_mu);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&cfg_mu, &at);
  pthread_mutexattr_destroy(&at);
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
#ifdef BADUNLOCK
  pthread_mutex_unlock(&st_mu);
#endif
  pthread_join(a, 0);
  pthread_join(b, 0);
  /* the workers read generation 1 and 2, in some order */
  assert(cfg_gen == 2 && stats == 3);
  return 0;
}
