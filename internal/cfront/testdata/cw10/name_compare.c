// Character buffers compared with memcmp and strcmp of short constant
// strings in threads: clang folds these calls into wide loads (2, 4 or 8
// bytes) of the buffers, which are byte memory: each worker copies a
// name into its slot of a shared char array (under a mutex) and main
// checks both after the joins. Default: PASS everywhere. -D BUG: the
// second worker writes its name one slot to the left (into the first
// worker's slot): a data race (RACE under rc11/imm), and elsewhere a
// name is lost: FAIL.
#include <assert.h>
#include <pthread.h>
#include <string.h>

static char names[2][8];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  long id = (long)arg;
  const char *mine = id ? "bob" : "alice";
  long slot = id;
#ifdef BUG
  if (id == 1) {
    strcpy(names[0], mine);
    return 0;
  }
#endif
  pthread_mutex_lock(&mu);
  strcpy(names[slot], mine);
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(memcmp(names[0], "alice", 6) == 0);
  assert(strcmp(names[1], "bob") == 0);
  return 0;
}
