// A table of operations: a struct holding function pointers and a name,
// chosen by index in each worker (an indirect call through a struct
// field), each worker applying its operation to a shared accumulator
// under a mutex. The order of the two workers is free, and the
// operations commute only as written: add 3 then double gives 2*(x+3),
// double then add gives 2x+3 - the assertion accepts both. Default:
// PASS everywhere. -D BUG: the table's second entry points at the wrong
// function (square instead of twice): FAIL everywhere (no race).
#include <assert.h>
#include <pthread.h>

struct op {
  const char *name;
  int (*apply)(int, int);
  int arg;
};

static int add(int x, int k) { return x + k; }
static int twice(int x, int k) { return x * k; }
static int square(int x, int k) { (void)k; return x * x; }

static struct op table[2] = {
    {"add", add, 3},
#ifdef BUG
    {"twice", square, 2},
#else
    {"twice", twice, 2},
#endif
};

static int acc = 2;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  const struct op *o = &table[(long)arg];
  pthread_mutex_lock(&mu);
  acc = o->apply(acc, o->arg);
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0);
  pthread_create(&b, 0, worker, (void *)1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(acc == 10 || acc == 7);
  return 0;
}
