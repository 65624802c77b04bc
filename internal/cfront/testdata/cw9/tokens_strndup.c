// main splits "ab,cde" at its comma with strchr and strndup, hands each
// token to a worker that checks it with strlen and strcmp, and frees
// them after the joins. Default: PASS everywhere. -D BUG: the first
// token is made one character too long (strndup's n counts the comma):
// the worker's strcmp fails (FAIL everywhere; natively 100%).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static char line[8] = "ab,cde";

static void *check(void *arg) {
  char *tok = arg;
  size_t n = strlen(tok);
  assert((n == 2 && strcmp(tok, "ab") == 0) || (n == 3 && strcmp(tok, "cde") == 0));
  return 0;
}

int main(void) {
  char *comma = strchr(line, ',');
  assert(comma != 0);
#ifdef BUG
  char *first = strndup(line, 3);
#else
  char *first = strndup(line, 2);
#endif
  char *second = strdup(comma + 1);
  pthread_t a, b;
  pthread_create(&a, 0, check, first);
  pthread_create(&b, 0, check, second);
  pthread_join(a, 0);
  pthread_join(b, 0);
  free(first);
  free(second);
  return 0;
}
