// Workers compute a struct by value (a function returning a struct, a
// struct argument copied) and store it into a shared array of structs
// under a mutex; main adds the fields after the joins. Default: PASS
// everywhere. -D BUG: the second worker stores without the lock into the
// same slot as the first (slot 0 for both): a data race on the struct's
// fields (RACE under rc11/imm); elsewhere the last store wins, so slot 1
// keeps its zeroes and main's total is wrong: FAIL.
#include <assert.h>
#include <pthread.h>

struct point {
  int x, y;
  long weight;
};

static struct point slots[2];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static struct point make(int id) {
  struct point p = {id + 1, 2 * (id + 1), 10L * (id + 1)};
  return p;
}

static struct point shifted(struct point p, int dx) {
  p.x += dx; // a copy: the caller's struct is unchanged
  return p;
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  struct point p = shifted(make(id), 100);
#ifdef BUG
  if (id == 1) {
    slots[0] = p;
    return 0;
  }
#endif
  pthread_mutex_lock(&mu);
  slots[id] = p;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  struct point a = slots[0], b = slots[1];
  assert(a.x + b.x == 203 && a.y + b.y == 6 && a.weight + b.weight == 30);
  return 0;
}
