// String functions of the C library over shared buffers. main publishes
// a "key=value" setting in a buffer under a mutex; a parser thread finds
// the '=' with strchr, compares the key with strncmp and strcmp, and
// measures the value with strlen and strnlen. Two drawers take numbers
// from one rand_r generator under the mutex: the two draws are glibc's
// first two values for seed 7, in some order.
// Default: PASS under every model (native: never fails).
// -DBUG: main writes the setting after it publishes the flag, outside
//   the mutex: RACE under rc11 and imm; under the others the parser may
//   see the flag and an empty buffer (strchr finds no '='): FAIL.
// -DBUG2: the drawers call rand_r without the mutex: RACE under rc11
//   and imm; under the others both may read seed 7 and draw the same
//   number: FAIL.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char setting[16];
static int published;
static unsigned seed = 7;
static int draws[2];

static void *parser(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  if (published) {
    char *eq = strchr(setting, '=');
    assert(eq != NULL);
    assert(eq == setting + 4 && strncmp(setting, "mode=", 5) == 0);
    assert(strcmp(eq + 1, "fast") == 0 && strcmp(eq + 1, "faster") < 0);
    assert(strlen(setting) == 9 && strnlen(setting, 4) == 4);
  }
  pthread_mutex_unlock(&mu);
  return 0;
}

static void *drawer(void *arg) {
  int i = (int)(long)arg;
#ifndef BUG2
  pthread_mutex_lock(&mu);
#endif
  draws[i] = rand_r(&seed);
#ifndef BUG2
  pthread_mutex_unlock(&mu);
#endif
  return 0;
}

int main(void) {
  pthread_t p, d0, d1;
  pthread_create(&p, 0, parser, 0);
  pthread_create(&d0, 0, drawer, (void *)0L);
  pthread_create(&d1, 0, drawer, (void *)1L);
  pthread_mutex_lock(&mu);
#ifndef BUG
  memcpy(setting, "mode=fast", 10);
#endif
  published = 1;
  pthread_mutex_unlock(&mu);
#ifdef BUG
  memcpy(setting, "mode=fast", 10);
#endif
  pthread_join(p, 0);
  pthread_join(d0, 0);
  pthread_join(d1, 0);
  assert((draws[0] == 1187592820 && draws[1] == 153898277) ||
         (draws[1] == 1187592820 && draws[0] == 153898277));
  return 0;
}
