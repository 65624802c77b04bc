// strtok_r (the reentrant tokenizer: its state in the caller's pointer)
// splits each worker's own copy of a line; strtok (one hidden state for
// the whole program) is not safe in two threads at once. Default: each
// worker uses strtok_r on its own buffer and counts its tokens: PASS
// everywhere. -D BUG: main expects 4 tokens in "a,b,,c" (strtok_r
// skips empty fields: 3): FAIL everywhere.
#include <assert.h>
#include <pthread.h>
#include <string.h>

static int counts[2];

static void *worker(void *arg) {
  long id = (long)arg;
  char line[8];
  strcpy(line, id ? "a,b,,c" : "x y");
  const char *delim = id ? "," : " ";
  char *save = 0;
  int n = 0;
  for (char *tok = strtok_r(line, delim, &save); tok; tok = strtok_r(0, delim, &save))
    n++;
  counts[id] = n;
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
#ifdef BUG
  assert(counts[0] == 2 && counts[1] == 4);
#else
  assert(counts[0] == 2 && counts[1] == 3);
#endif
  return 0;
}
