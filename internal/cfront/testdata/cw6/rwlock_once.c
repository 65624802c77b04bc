// A pthread read-write lock guarding a two-field config that a writer
// replaces while two readers check its invariant (lo + hi == 10); the
// config is built first by pthread_once from whichever thread runs
// first. PASS everywhere.
// -DBUG: the writer takes the lock for reading, so readers can see a
// half-written config: RACE under rc11 and imm, FAIL under sc and the
// targets.
#include <pthread.h>
#include <assert.h>
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct { int lo, hi; } cfg;
static void init_cfg(void) {
  cfg.lo = 4;
  cfg.hi = 6;
}
static void *reader(void *arg) {
  (void)arg;
  pthread_once(&once, init_cfg);
  pthread_rwlock_rdlock(&rw);
  int s = cfg.lo + cfg.hi;
  pthread_rwlock_unlock(&rw);
  assert(s == 10);
  return NULL;
}
static void *writer(void *arg) {
  (void)arg;
  pthread_once(&once, init_cfg);
#ifdef BUG
  pthread_rwlock_rdlock(&rw);
#else
  pthread_rwlock_wrlock(&rw);
#endif
  cfg.lo = 1;
  cfg.hi = 9;
  pthread_rwlock_unlock(&rw);
  return NULL;
}
int main(void) {
  pthread_t r1, r2, w;
  pthread_create(&r1, NULL, reader, NULL);
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r2, NULL, reader, NULL);
  pthread_join(r1, NULL);
  pthread_join(w, NULL);
  pthread_join(r2, NULL);
  assert(cfg.lo == 1 && cfg.hi == 9);
  return 0;
}
