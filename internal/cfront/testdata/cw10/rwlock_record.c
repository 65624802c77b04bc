// A record of two fields kept consistent by a pthread rwlock: a writer
// takes the write lock and sets both fields; two readers take the read
// lock (together, if they like) and check the fields agree. Default:
// PASS everywhere. -D BUG: the writer takes the read lock: readers may
// see the fields half written (RACE under rc11/imm; FAIL elsewhere).
#include <assert.h>
#include <pthread.h>

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int lo, hi; // invariant: hi == lo * 2

static void *writer(void *arg) {
  (void)arg;
#ifdef BUG
  pthread_rwlock_rdlock(&rw);
#else
  pthread_rwlock_wrlock(&rw);
#endif
  lo = 3;
  hi = 6;
  pthread_rwlock_unlock(&rw);
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  pthread_rwlock_rdlock(&rw);
  int a = lo, b = hi;
  pthread_rwlock_unlock(&rw);
  assert(b == a * 2);
  return 0;
}

int main(void) {
  pthread_t w, r1, r2;
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r2, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r1, 0);
  pthread_join(r2, 0);
  return 0;
}
