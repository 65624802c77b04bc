// Constructors: the C runtime calls __attribute__((constructor))
// functions before main, a lower priority number first. Two
// constructors build a shared configuration (the second depends on the
// first); threads then read it without synchronisation of their own
// (pthread_create orders the constructors' writes before them), and
// bump a counter under a mutex.
// Default: PASS under every model.
// -DBUG: the priorities are swapped, so the table is built from a base
// not yet set: the check fails on every run (natively too) and under
// every model.
// -DDTOR: a destructor checks the counter at exit (refused by name
// before cmutex; now run after main returns): PASS.
#include <assert.h>
#include <pthread.h>

#ifdef BUG
#define PRIO_BASE 102
#define PRIO_TABLE 101
#else
#define PRIO_BASE 101
#define PRIO_TABLE 102
#endif

static int base;
static int table[3];
static int hits;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

__attribute__((constructor(PRIO_BASE))) static void set_base(void) { base = 10; }

__attribute__((constructor(PRIO_TABLE))) static void fill_table(void) {
  for (int i = 0; i < 3; i++)
    table[i] = base + i;
}

#ifdef DTOR
__attribute__((destructor)) static void report(void) { assert(hits == 2); }
#endif

static void *reader(void *arg) {
  int i = (int)(long)arg;
  assert(table[i] == 10 + i);
  pthread_mutex_lock(&m);
  hits++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, (void *)1L);
  pthread_create(&b, 0, reader, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(hits == 2);
  return 0;
}
