// pthread_self, the value a thread returns through pthread_join, mutex
// attributes, thread attributes and Dartagnan's loop annotations.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

// Defined for the native run; Musket lowers the call by its name.
void __VERIFIER_loop_bound(int n) { (void)n; }

pthread_mutex_t m;
pthread_t ids[2];
int sum;

void *worker(void *arg) {
  intptr_t i = (intptr_t)arg;
  pthread_mutex_lock(&m);
  sum += (int)i;
  pthread_mutex_unlock(&m);
  assert(!pthread_equal(pthread_self(), ids[1 - i]) || ids[1 - i] == 0);
  return (void *)(i + 10);
}

int main(void) {
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_NORMAL);
  pthread_mutex_init(&m, &ma);
  pthread_attr_t ta;
  pthread_attr_init(&ta);
  __VERIFIER_loop_bound(3);
  for (intptr_t i = 0; i < 2; i++)
    pthread_create(&ids[i], &ta, worker, (void *)i);
  void *r0, *r1;
  pthread_join(ids[0], &r0);
  pthread_join(ids[1], &r1);
  assert((intptr_t)r0 == 10 && (intptr_t)r1 == 11);
  assert(sum == 1);
  assert(pthread_equal(pthread_self(), pthread_self()));
  return 0;
}
