// main parses a configuration text with strtol (white space, signs, a
// 0x prefix with base 0, the end pointer) before creating the workers,
// which read the parsed values without a lock: the creation orders
// main's writes before them. The workers add their share to an atomic
// total. Default: PASS everywhere. -D BUG: main parses the third value
// after creating the workers: a data race on limit (RACE under rc11/imm;
// a worker may read 0: FAIL elsewhere).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

static const char text[] = " 12, -3, 0x10";
static long base_v, delta, limit;
static atomic_long total;

static void *worker(void *arg) {
  (void)arg;
  assert(limit == 16);
  atomic_fetch_add(&total, base_v + delta);
  return 0;
}

int main(void) {
  char *end;
  base_v = strtol(text, &end, 10);
  assert(*end == ',' && end - text == 3);
  delta = strtol(end + 1, &end, 10);
#ifndef BUG
  limit = strtol(end + 1, &end, 0);
#endif
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
#ifdef BUG
  limit = strtol(end + 1, &end, 0);
#endif
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 18 && *end == 0);
  return 0;
}
