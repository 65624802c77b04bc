// A rendezvous with two semaphores (Downey, "The Little Book of
// Semaphores", 3.3): each thread posts its own arrival and waits for the
// other's, so each statement after the rendezvous sees what the other
// wrote before it.
// Default: PASS under every model.
// -D BUG: thread B skips its wait: its read may come before A's write:
// a race under rc11/imm, FAIL under the others.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

static sem_t a_arrived, b_arrived;
static int a1, b1;

static void *thread_a(void *arg) {
  (void)arg;
  a1 = 1;
  sem_post(&a_arrived);
  sem_wait(&b_arrived);
  assert(b1 == 1);
  return 0;
}

static void *thread_b(void *arg) {
  (void)arg;
  b1 = 1;
  sem_post(&b_arrived);
#ifndef BUG
  sem_wait(&a_arrived);
#endif
  assert(a1 == 1);
  return 0;
}

int main(void) {
  sem_init(&a_arrived, 0, 0);
  sem_init(&b_arrived, 0, 0);
  pthread_t a, b;
  pthread_create(&a, 0, thread_a, 0);
  pthread_create(&b, 0, thread_b, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
