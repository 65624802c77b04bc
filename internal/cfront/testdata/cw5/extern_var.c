// A variable declared extern and defined in another file of the user's
// build (a configuration limit). Musket checks one file: the variable
// has no value here, and natively the program does not link alone. It
// is refused by name (it was read as 0, and the program passed).
#include <assert.h>
#include <pthread.h>
extern int limit;
static int used;
static void *work(void *arg) {
  if (used < limit)
    used++;
  return arg;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, work, 0);
  pthread_join(t, 0);
  assert(used <= limit);
  return 0;
}
