// A device record copied in and out with memcpy under a mutex (the
// kernel drivers' style); -DBUG: the reader copies without the mutex.
// -O1 turns each copy of the two ints into one 8-byte access, so the
// record is accessed with mixed sizes. Under rc11 the bug is a data race
// (the unlocked copy against a writer's, lines 26 and 34); it was no
// verdict ("reads this mixed-size access torn"): a torn read of a plain
// access is itself a race with the write it tears it by.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct rec {
  pthread_mutex_t m;
  int len;
  int v[2];
};

struct rec dev = {PTHREAD_MUTEX_INITIALIZER, 0, {0, 0}};

void *writer(void *arg) {
  int buf[2];
  buf[0] = (int)(long)arg;
  buf[1] = (int)(long)arg;
  pthread_mutex_lock(&dev.m);
  dev.len = 2;
  memcpy(dev.v, buf, sizeof buf);
  pthread_mutex_unlock(&dev.m);
  return 0;
}

void *reader(void *arg) {
  int out[2];
  (void)arg;
#ifndef BUG
  pthread_mutex_lock(&dev.m);
#endif
  memcpy(out, dev.v, sizeof out);
#ifndef BUG
  pthread_mutex_unlock(&dev.m);
#endif
  assert(out[0] == out[1]);
  return 0;
}

int main(void) {
  pthread_t w1, w2, r;
  pthread_create(&w1, 0, writer, (void *)1L);
  pthread_create(&w2, 0, writer, (void *)2L);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w1, 0);
  pthread_join(w2, 0);
  pthread_join(r, 0);
  return 0;
}
