// Lazy initialisation with pthread_once: the first thread to need a
// lookup table fills it (init_table runs exactly once); every thread then
// reads it. The init counts its runs. Default: PASS everywhere. -D BUG:
// a hand-written "if (!inited) { init; inited = 1; }" instead of
// pthread_once: both threads may fill the table, and the reader of
// inited races with its writer: RACE under rc11/imm; elsewhere init
// runs twice: FAIL.
#include <assert.h>
#include <pthread.h>

static int table[4];
static int runs;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int inited;

static void init_table(void) {
  runs++;
  for (int i = 0; i < 4; i++)
    table[i] = i * i;
}

static void ensure(void) {
#ifdef BUG
  if (!inited) {
    init_table();
    inited = 1;
  }
#else
  pthread_once(&once, init_table);
#endif
}

static int got[2];

static void *worker(void *arg) {
  int id = (int)(long)arg;
  ensure();
  got[id] = table[id + 2];
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(got[0] == 4 && got[1] == 9 && runs == 1);
  return 0;
}
