// A minimal thread pool: a job queue (array of {function pointer,
// argument} structs) under a mutex with a condition variable; workers
// wait for a job or for shutdown; main submits two jobs, sets shutdown
// and broadcasts, then joins. Each job adds its argument to a total
// under a second mutex.
// Default: PASS under every model (every job runs exactly once before
// the workers stop).
// -DBUG: a worker leaves as soon as shutdown is set, even with jobs
// still queued: a job may never run (FAIL under every model).
#include <assert.h>
#include <pthread.h>

typedef void (*job_fn)(int);
struct job {
  job_fn fn;
  int arg;
};

static struct job queue[2];
static int head, count, shutting_down;
static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER, tm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qc = PTHREAD_COND_INITIALIZER;
static int total;

static void add(int x) {
  pthread_mutex_lock(&tm);
  total += x;
  pthread_mutex_unlock(&tm);
}

static void submit(job_fn fn, int arg) {
  pthread_mutex_lock(&qm);
  queue[(head + count) % 2] = (struct job){.fn = fn, .arg = arg};
  count++;
  pthread_cond_signal(&qc);
  pthread_mutex_unlock(&qm);
}

static void *worker(void *unused) {
  (void)unused;
  for (;;) {
    pthread_mutex_lock(&qm);
    while (count == 0 && !shutting_down)
      pthread_cond_wait(&qc, &qm);
#ifdef BUG
    if (shutting_down) {
#else
    if (count == 0) {
#endif
      pthread_mutex_unlock(&qm);
      return 0;
    }
    struct job j = queue[head];
    head = (head + 1) % 2;
    count--;
    pthread_mutex_unlock(&qm);
    j.fn(j.arg);
  }
}

int main(void) {
  pthread_t w[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&w[i], 0, worker, 0);
  submit(add, 3);
  submit(add, 4);
  pthread_mutex_lock(&qm);
  shutting_down = 1;
  pthread_cond_broadcast(&qc);
  pthread_mutex_unlock(&qm);
  for (int i = 0; i < 2; i++)
    pthread_join(w[i], 0);
  assert(total == 7);
  return 0;
}
