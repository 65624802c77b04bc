// SV-COMP's monabsex shape: threads increment a shared counter under a
// mutex and a monotone watcher reads it under the mutex and checks it
// never goes down. Default: PASS everywhere. -D BUG: one increment is a
// read and a write of a plain copy outside the lock (a lost update and a
// value that goes down are possible): RACE under rc11/imm, FAIL
// elsewhere.
#include <assert.h>
#include <pthread.h>

static int s;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *inc(void *arg) {
  (void)arg;
#ifdef BUG
  int v = s;
  s = v + 1;
#else
  pthread_mutex_lock(&mu);
  s++;
  pthread_mutex_unlock(&mu);
#endif
  return 0;
}

static void *watch(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  int a = s;
  pthread_mutex_unlock(&mu);
  pthread_mutex_lock(&mu);
  int b = s;
  pthread_mutex_unlock(&mu);
  assert(a <= b);
  return 0;
}

int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, inc, 0);
  pthread_create(&t[1], 0, watch, 0);
  pthread_create(&t[2], 0, inc, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  pthread_mutex_lock(&mu);
  assert(s == 2);
  pthread_mutex_unlock(&mu);
  return 0;
}
