// snprintf and sprintf into buffers. Two workers format a status line
// ("w<id>:<count>/<hex>") into a shared line under a mutex and append
// its length to a total; main formats the summary with snprintf into a
// small buffer (truncated: the result is the full length) and checks
// the texts with strcmp.
// Default: PASS under every model (native: never fails).
// -DBUG: the line buffer is one byte too small for "w2:-15/ff" and
//   snprintf truncates it: the worker's check of the text fails under
//   every model (native: always).
// -DBUG2: the workers format into the shared line without the mutex:
//   RACE under rc11 and imm; under the others a worker may check the
//   other's text, or the total loses an update: FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifdef BUG
#define LINE 9
#else
#define LINE 16
#endif

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char line[LINE];
static int total;

static void *worker(void *arg) {
  int id = (int)(long)arg;
  int count = id == 1 ? 7 : -15;
  unsigned mask = id == 1 ? 10u : 255u;
#ifndef BUG2
  pthread_mutex_lock(&mu);
#endif
  int n = snprintf(line, sizeof line, "w%d:%d/%x", id, count, mask);
  if (id == 1) {
    assert(strcmp(line, "w1:7/a") == 0);
  } else {
    assert(strcmp(line, "w2:-15/ff") == 0);
  }
  total += n;
#ifndef BUG2
  pthread_mutex_unlock(&mu);
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)1L);
  pthread_create(&b, 0, worker, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  char summary[8];
  int full = snprintf(summary, sizeof summary, "total=%u", (unsigned)total);
  assert(full == 8 && strcmp(summary, "total=1") == 0);
  char who[4];
  sprintf(who, "%c%c", 'o', 'k');
  assert(strlen(who) == 2 && who[0] == 'o');
  return 0;
}
