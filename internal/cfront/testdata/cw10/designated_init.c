// Designated initialisers and memset: a per-thread context struct is
// cleared with memset and filled with a compound literal using
// designators (nested .limits[1] = ...); workers then copy their context
// into a shared array of contexts under a mutex. Default: PASS
// everywhere (the members a designator leaves out are zero). -D BUG:
// main reads the slots before it joins worker 1 (under the mutex, but
// worker 1 may not have run yet): no race, and slot 1 may still be
// zero: FAIL everywhere.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct ctx {
  int id;
  unsigned flags;
  short limits[3];
  char name[6];
};

static struct ctx all[2];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  int id = (int)(long)arg;
  struct ctx c;
  memset(&c, 0xff, sizeof c);
  c = (struct ctx){.id = id + 1, .limits[1] = (short)(10 * (id + 1)), .name = "w"};
  pthread_mutex_lock(&mu);
  all[id] = c;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  pthread_join(t[0], 0);
#ifndef BUG
  pthread_join(t[1], 0);
#endif
  pthread_mutex_lock(&mu);
  int ok = all[0].id == 1 && all[0].flags == 0 && all[0].limits[0] == 0 && all[0].limits[1] == 10 && all[0].name[0] == 'w' && all[0].name[1] == 0;
  int ok1 = all[1].id == 2 && all[1].limits[1] == 20 && all[1].limits[2] == 0;
  pthread_mutex_unlock(&mu);
#ifdef BUG
  pthread_join(t[1], 0);
#endif
  assert(ok && ok1);
  return 0;
}
