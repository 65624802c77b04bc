// Two workers format a log line each with snprintf (flags, width,
// precision, length modifiers) into their own slot of a shared table,
// under a mutex that also guards the line count; main checks the lines'
// lengths and characters after joining. Default: PASS everywhere.
// -D BUG: the second worker formats into the first one's slot without
// the lock: a data race (RACE under rc11/imm), and the first line may be
// the other's (FAIL elsewhere).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static char lines[2][24];
static int count;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  long id = (long)arg;
  int slot = (int)id;
#ifdef BUG
  slot = 0;
  if (id == 1) {
    snprintf(lines[slot], sizeof lines[slot], "%-4s|%05ld|%x", "w", id, 255u);
    return 0;
  }
#endif
  pthread_mutex_lock(&mu);
  int n = snprintf(lines[slot], sizeof lines[slot], "%-4s|%05ld|%x", id ? "w" : "main", id, 255u);
  assert(n == 13);
  count++;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0L);
  pthread_create(&b, 0, worker, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(lines[0][0] == 'm' && lines[0][4] == '|' && lines[0][9] == '0' && lines[0][11] == 'f');
  assert(lines[0][13] == 0);
  return 0;
}
