// A shared struct copied as a whole (struct assignment, C11 6.5.16.1)
// under a mutex: the writer builds a local record and assigns it to the
// shared one, the reader copies the shared one out and checks the
// record's invariant (lo + hi == 10).
// Default: both copies under the mutex: PASS under every model.
// -D BUG: the reader copies without the mutex: a race under rc11 and imm
// (R); clang copies the 12-byte record in pieces, so a reader may see
// half of each (FAIL under every other model, sc included).
#include <assert.h>
#include <pthread.h>

struct rec {
  int lo, hi, ver;
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct rec shared = {5, 5, 0};

static void *writer(void *a) {
  (void)a;
  struct rec r = {3, 7, 1};
  pthread_mutex_lock(&m);
  shared = r;
  pthread_mutex_unlock(&m);
  return 0;
}

static void *reader(void *a) {
  (void)a;
  struct rec r;
#ifndef BUG
  pthread_mutex_lock(&m);
#endif
  r = shared;
#ifndef BUG
  pthread_mutex_unlock(&m);
#endif
  assert(r.lo + r.hi == 10);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
