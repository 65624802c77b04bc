// C features a user's job dispatcher has: an enum of job kinds, a const
// table of weights with designated initialisers, jobs handed to threads
// as compound literals, a switch over the kind, goto to a common exit,
// and a static local counter (behind a mutex) that numbers the jobs.
// Every job gets a distinct number and the weighted total is exact:
// PASS under every model.
// -DBUG: the static counter is bumped outside the mutex: two jobs can
// get the same number (FAIL under sc and the targets; RACE under rc11
// and imm).
#include <pthread.h>
#include <assert.h>
enum kind { K_ADD, K_SUB, K_XOR, K_COUNT };
static const int weight[K_COUNT] = {[K_XOR] = 4, [K_ADD] = 1, [K_SUB] = 2};
struct job {
  enum kind kind;
  int val;
  int number;
};
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int total;
static int next_number(void) {
  static int counter = 100;
#ifdef BUG
  int n = counter++;
  pthread_mutex_lock(&m);
#else
  pthread_mutex_lock(&m);
  int n = counter++;
#endif
  pthread_mutex_unlock(&m);
  return n;
}
static void *run(void *arg) {
  struct job *j = arg;
  int delta;
  j->number = next_number();
  switch (j->kind) {
  case K_ADD:
    delta = j->val;
    break;
  case K_SUB:
    delta = -j->val;
    break;
  case K_XOR:
    delta = j->val ^ 1;
    break;
  default:
    goto out;
  }
  pthread_mutex_lock(&m);
  total += delta * weight[j->kind];
  pthread_mutex_unlock(&m);
out:
  return NULL;
}
int main(void) {
  pthread_t t[3];
  struct job *jobs[3] = {
      &(struct job){.kind = K_ADD, .val = 3},
      &(struct job){.val = 5, .kind = K_SUB},
      &(struct job){K_XOR, 6, 0},
  };
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, run, jobs[i]);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  assert(total == 3 * 1 - 5 * 2 + 7 * 4);
  assert(jobs[0]->number != jobs[1]->number && jobs[1]->number != jobs[2]->number &&
         jobs[0]->number != jobs[2]->number);
  return 0;
}
