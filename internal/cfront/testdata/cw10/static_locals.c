// static locals: a function-scope static counter shared by every caller
// (every thread), a static table initialised once, and a function
// returning the address of its static buffer. Workers take tickets from
// next_ticket() under a mutex; main checks the two tickets differ and
// that the static table was not re-initialised. Default: PASS
// everywhere. -D BUG: next_ticket's increment is outside the lock: a
// data race on the static (RACE under rc11/imm), and a lost update where
// both workers get the same ticket (FAIL elsewhere).
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static int next_ticket(void) {
  static int counter = 100;
#ifdef BUG
  int t = counter;
  counter = t + 1;
  return t;
#else
  pthread_mutex_lock(&mu);
  int t = counter++;
  pthread_mutex_unlock(&mu);
  return t;
#endif
}

static int *scale(void) {
  static int table[3] = {1, 10, 100};
  return table;
}

static int got[2];

static void *worker(void *arg) {
  int id = (int)(long)arg;
  got[id] = next_ticket() * scale()[id];
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  int a = got[0], b = got[1] / 10;
  assert(a != b && a >= 100 && a <= 101 && b >= 100 && b <= 101);
  assert(next_ticket() == 102 && scale()[2] == 100);
  return 0;
}
