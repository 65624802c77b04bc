// errno and POSIX semaphores: a consumer polls with sem_trywait, which
// fails with -1 and errno EAGAIN while the producer has not posted;
// errno is thread-local (each thread, main too, has its own, 0 at its
// start), so main's errno survives the threads' failures.
// Default: PASS under every model.
// -DBUG: the producer posts before it writes the data: the consumer's
// read races with the write (RACE under rc11 and imm) and may read the
// old value (FAIL under the others).
// -DEINTR_BUG: the consumer expects EINTR from a failed sem_trywait: FAIL
// under every model (natively whenever the first try fails).
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

static sem_t items;
static int data;

static void *producer(void *arg) {
  (void)arg;
#ifdef BUG
  sem_post(&items);
  data = 42;
#else
  data = 42;
  sem_post(&items);
#endif
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  for (int i = 0; i < 2; i++) {
    errno = 0;
    if (sem_trywait(&items) == 0) {
      assert(data == 42);
      return (void *)1;
    }
#ifdef EINTR_BUG
    assert(errno == EINTR);
#else
    assert(errno == EAGAIN);
#endif
  }
  return 0;
}

int main(void) {
  sem_init(&items, 0, 0);
  errno = ERANGE;
  pthread_t p, c;
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  assert(errno == ERANGE);
  return 0;
}
