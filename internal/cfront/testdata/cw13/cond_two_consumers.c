// pthread-divine's condition-variable shape: two consumers wait for
// items, one producer adds one item and broadcasts. POSIX allows
// spurious wake-ups and a broadcast wakes both, so a consumer must
// re-check its predicate in a loop (pthread_cond_wait's rationale).
// Default: while loops: at most one consumer takes the item, the other
// waits on (the program ends because the producer adds a second item
// after it): PASS under every model.
// -D BUG: "if" instead of "while": after the broadcast both consumers
// go on and one takes from an empty queue: FAIL under every model.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int items;

static void *consumer(void *a) {
  (void)a;
  pthread_mutex_lock(&m);
#ifdef BUG
  if (items == 0)
#else
  while (items == 0)
#endif
    pthread_cond_wait(&cv, &m);
  assert(items > 0);
  items--;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, consumer, 0);
  pthread_create(&b, 0, consumer, 0);
  for (int k = 0; k < 2; k++) {
    pthread_mutex_lock(&m);
    items++;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
  }
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(items == 0);
  return 0;
}
