// A dense switch that clang may turn into a lookup table (constant
// arrays indexed by the value), in a worker that maps opcodes to costs,
// and a sparse one; the costs are added under a mutex. Default: PASS
// everywhere. -D BUG: one case of the dense switch has the wrong cost:
// FAIL everywhere.
#include <assert.h>
#include <pthread.h>

enum op { NOP, LOAD, STORE, ADD, MUL, DIV, JUMP };

static int cost(enum op o) {
  switch (o) {
  case NOP: return 0;
  case LOAD: return 3;
  case STORE: return 3;
  case ADD: return 1;
#ifdef BUG
  case MUL: return 2;
#else
  case MUL: return 4;
#endif
  case DIV: return 20;
  case JUMP: return 2;
  }
  return -1;
}

static int weight(int code) {
  switch (code) {
  case 7: return 1;
  case 100: return 2;
  case 1000: return 3;
  default: return 0;
  }
}

static int total;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  int base = (int)(long)arg;
  int s = 0;
  for (int o = base; o < base + 3; o++)
    s += cost((enum op)o);
  s += weight(base == 0 ? 100 : 1000);
  pthread_mutex_lock(&mu);
  total += s;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0); // NOP LOAD STORE + 2
  pthread_create(&b, 0, worker, (void *)3); // ADD MUL DIV + 3
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 6 + 2 + 25 + 3);
  return 0;
}
