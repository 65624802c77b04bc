// SV-COMP's stateful01 shape: two threads update two shared values, each
// under its own mutex, with different operations; after the joins main
// checks the only possible results. Default: PASS everywhere. -D BUG:
// main asserts one order of the two updates of data1 (FAIL everywhere).
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER, mb = PTHREAD_MUTEX_INITIALIZER;
static int data1 = 10, data2 = 10;

static void *thread1(void *arg) {
  (void)arg;
  pthread_mutex_lock(&ma);
  data1++;
  pthread_mutex_unlock(&ma);
  pthread_mutex_lock(&mb);
  data2++;
  pthread_mutex_unlock(&mb);
  return 0;
}

static void *thread2(void *arg) {
  (void)arg;
  pthread_mutex_lock(&ma);
  data1 += 5;
  pthread_mutex_unlock(&ma);
  pthread_mutex_lock(&mb);
  data2 -= 6;
  pthread_mutex_unlock(&mb);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thread1, 0);
  pthread_create(&b, 0, thread2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(data1 == 16 && data2 == 5);
#ifdef BUG
  pthread_mutex_lock(&ma);
  pthread_mutex_unlock(&ma);
  assert(data1 != 16);
#endif
  return 0;
}
