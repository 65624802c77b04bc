// The results of the output functions used as values: printf returns
// the number of characters (here with a width, a precision and %ld),
// puts the length plus one, putchar its character as unsigned char.
// Two threads print under a mutex and add what printf returned to a
// shared total. Default: PASS everywhere. -D BUG: no mutex: a data race
// on total (RACE under rc11/imm, a lost update: FAIL elsewhere).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int total;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  long id = (long)arg;
#ifndef BUG
  pthread_mutex_lock(&mu);
#endif
  int n = printf("[%3ld] %-6s|%.2d\n", id, "job", 7);
  total += n;
#ifndef BUG
  pthread_mutex_unlock(&mu);
#endif
  return 0;
}

int main(void) {
  assert(puts("start") == 6);
  assert(putchar(200) == 200);
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)1L);
  pthread_create(&b, 0, worker, (void *)22L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 32);
  return 0;
}
