// SV-COMP's double_lock shape (pthread-ext 33-35): a thread takes two
// mutexes in turn, a second one the same two in the same order; a
// counter guarded by the second lock and a flag by the first. Default:
// PASS everywhere. -D BUG: the second thread updates the counter holding
// only the first lock: a data race with main's read under the second
// (RACE under rc11/imm); m1 still orders it with the first thread's
// update, so the count is right: PASS elsewhere.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
static int count, flag;

static void *t1(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m1);
  flag = 1;
  pthread_mutex_lock(&m2);
  count++;
  pthread_mutex_unlock(&m2);
  pthread_mutex_unlock(&m1);
  return 0;
}

static void *t2(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m1);
#ifndef BUG
  pthread_mutex_lock(&m2);
#endif
  count++;
#ifndef BUG
  pthread_mutex_unlock(&m2);
#endif
  pthread_mutex_unlock(&m1);
  pthread_mutex_lock(&m2);
  count++;
  pthread_mutex_unlock(&m2);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_mutex_lock(&m2);
  int c = count;
  pthread_mutex_unlock(&m2);
  assert(c <= 3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 3 && flag == 1);
  return 0;
}
