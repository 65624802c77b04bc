// A robust mutex (pthread_mutexattr_setrobust, EOWNERDEAD,
// pthread_mutex_consistent), as programs that share a mutex with threads
// that may die use it. Musket does not model an owner's death: it must
// refuse the program by name, not answer as if the attribute meant
// nothing.
// Default and -D BUG (the recovery path forgets
// pthread_mutex_consistent): a named refusal under every model.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

static pthread_mutex_t m;
static int shared;

static void *worker(void *arg) {
  (void)arg;
  int r = pthread_mutex_lock(&m);
  if (r == EOWNERDEAD) {
#ifndef BUG
    pthread_mutex_consistent(&m);
#endif
    shared = 0;
  }
  shared++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&m, &a);
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(shared == 2);
  return 0;
}
