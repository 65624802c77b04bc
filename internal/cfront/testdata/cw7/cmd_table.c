// A command table: a const array of {name, handler} with string
// literals, looked up by a hand-written strcmp (no libc string
// functions), as a small shell or protocol parser does. Two threads
// dispatch a command each; handlers update shared counters under a
// mutex. The loops over strings need -bound 6 (the longest name and its
// terminator); less is BOUND.
// Default: PASS under every model.
// -DBUG: the lookup compares only the first character, so "stop"
// dispatches to "start"'s handler: FAIL under every model (natively
// too).
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static int started, stopped;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void do_start(void) {
  pthread_mutex_lock(&m);
  started++;
  pthread_mutex_unlock(&m);
}
static void do_stop(void) {
  pthread_mutex_lock(&m);
  stopped++;
  pthread_mutex_unlock(&m);
}

struct cmd {
  const char *name;
  void (*run)(void);
};
static const struct cmd cmds[] = {{"start", do_start}, {"stop", do_stop}};

static int my_strcmp(const char *a, const char *b) {
#ifdef BUG
  return (unsigned char)a[0] - (unsigned char)b[0];
#else
  while (*a && *a == *b)
    a++, b++;
  return (unsigned char)*a - (unsigned char)*b;
#endif
}

static const struct cmd *lookup(const char *name) {
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
    if (my_strcmp(cmds[i].name, name) == 0)
      return &cmds[i];
  return NULL;
}

static void *client(void *arg) {
  const struct cmd *c = lookup(arg);
  if (c)
    c->run();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, client, "start");
  pthread_create(&b, 0, client, "stop");
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(started == 1 && stopped == 1);
  return 0;
}
