// The control: a static global shared under a mutex, written and read
// back by two threads running the same function and never read
// elsewhere. No race, and the assertion holds.
#include <pthread.h>
#include <assert.h>

static int shared;
static int unread;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *set(void *arg) {
  pthread_mutex_lock(&m);
  shared = (int)(long)arg;
  unread = shared;
  assert(shared == (int)(long)arg);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, set, (void *)1);
  pthread_create(&b, 0, set, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
