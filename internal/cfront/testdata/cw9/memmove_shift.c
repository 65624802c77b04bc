// A worker shifts a shared buffer one byte to the right with memmove
// (overlapping regions: memmove copies as if through a temporary) under
// a mutex and puts a new first byte; main does the same after joining
// and checks the bytes with memcmp. Default: PASS everywhere. -D BUG:
// the worker does not lock: a data race with main's shift (RACE under
// rc11/imm; the bytes may mix: FAIL elsewhere).
#include <assert.h>
#include <pthread.h>
#include <string.h>

static char buf[6] = "abcd";
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void shift(char c) {
  memmove(buf + 1, buf, 4);
  buf[0] = c;
}

static void *worker(void *arg) {
  (void)arg;
#ifndef BUG
  pthread_mutex_lock(&mu);
#endif
  shift('x');
#ifndef BUG
  pthread_mutex_unlock(&mu);
#endif
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&mu);
  shift('y');
  pthread_mutex_unlock(&mu);
  pthread_join(t, 0);
  assert(memcmp(buf, "xyabc", 5) == 0 || memcmp(buf, "yxabc", 5) == 0);
  return 0;
}
