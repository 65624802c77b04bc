// A driver's timer callback and module exit (the shape of LDV's
// ldv-races models: a callback that runs concurrently with the rest of
// the module): init allocates the device state and starts the "timer"
// thread, whose callback updates it; exit stops the timer (joins its
// thread, as del_timer_sync waits for a running callback) and frees the
// state.
// Default: PASS under every model.
// -D BUG: exit frees the state before stopping the timer (del_timer
// after kfree): the callback's access may come after the free: FAIL
// ("use after free") under every model.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct state {
  int ticks;
  int limit;
};

static struct state *st;
static pthread_t timer;

static void *timer_fn(void *arg) {
  struct state *s = arg;
  if (s->ticks < s->limit)
    s->ticks++;
  return 0;
}

static void module_init(void) {
  st = malloc(sizeof *st);
  st->ticks = 0;
  st->limit = 3;
  pthread_create(&timer, 0, timer_fn, st);
}

static void module_exit(void) {
#ifdef BUG
  free(st);
  pthread_join(timer, 0);
#else
  pthread_join(timer, 0);
  assert(st->ticks == 1);
  free(st);
#endif
}

int main(void) {
  module_init();
  module_exit();
  return 0;
}
