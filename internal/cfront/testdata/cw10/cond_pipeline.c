// A three-stage pipeline with two condition variables over one mutex
// (a stage number): stage 1 in worker A, stage 2 in worker B, each
// waiting for its turn with while (stage != k) wait; each stage
// broadcasts after it advances the stage. main waits for stage 3.
// Default: PASS everywhere. -D BUG: worker B signals the wrong condition
// variable after its stage (cv_work, not main's cv_done): a lost
// wake-up; when main waits before B's stage it waits forever (natively
// the program hangs).
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t cv_done = PTHREAD_COND_INITIALIZER;
static int stage = 1, value;

static void *stage1(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  while (stage != 1)
    pthread_cond_wait(&cv_work, &mu);
  value = 5;
  stage = 2;
  pthread_cond_broadcast(&cv_work);
  pthread_mutex_unlock(&mu);
  return 0;
}

static void *stage2(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  while (stage != 2)
    pthread_cond_wait(&cv_work, &mu);
  value *= 3;
  stage = 3;
#ifdef BUG
  pthread_cond_signal(&cv_work);
#else
  pthread_cond_broadcast(&cv_done);
#endif
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&b, 0, stage2, 0);
  pthread_create(&a, 0, stage1, 0);
  pthread_mutex_lock(&mu);
  while (stage != 3)
    pthread_cond_wait(&cv_done, &mu);
  assert(value == 15);
  pthread_mutex_unlock(&mu);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
