// pthread_self and pthread_equal: each worker records pthread_self() in
// a table slot (under a mutex, in arrival order); main, after joining,
// finds each worker's handle in the table with pthread_equal, and
// checks that its own pthread_self() is none of them. thrd_current and
// thrd_equal are used the same way for the C11 view. PASS everywhere.
// -DBUG: main compares its own handle with the first slot and expects
// equality: FAIL under every model.
#include <pthread.h>
#include <threads.h>
#include <assert.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_t seen[2];
static int n;
static thrd_t main_id;
static void *worker(void *arg) {
  (void)arg;
  assert(!thrd_equal(thrd_current(), main_id));
  pthread_mutex_lock(&m);
  seen[n++] = pthread_self();
  pthread_mutex_unlock(&m);
  return NULL;
}
int main(void) {
  pthread_t t[2];
  main_id = thrd_current();
  pthread_create(&t[0], NULL, worker, NULL);
  pthread_create(&t[1], NULL, worker, NULL);
  pthread_join(t[0], NULL);
  pthread_join(t[1], NULL);
  assert(n == 2);
  for (int i = 0; i < 2; i++)
    assert(pthread_equal(t[i], seen[0]) || pthread_equal(t[i], seen[1]));
  assert(!pthread_equal(seen[0], seen[1]));
#ifdef BUG
  assert(pthread_equal(pthread_self(), seen[0]));
#else
  assert(!pthread_equal(pthread_self(), seen[0]));
#endif
  return 0;
}
