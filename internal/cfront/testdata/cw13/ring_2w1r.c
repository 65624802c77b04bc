// pthread-divine's ring buffer with two writers and one reader: a
// mutex and two condition variables (not full, not empty) around a
// ring of two slots; each writer puts one value, the reader takes two.
// Default: PASS under every model (the reader sees both values, once).
// -D BUG: a writer advances the write index outside the mutex (after
// its unlock): a race under rc11 and imm (R); two writers may fill one
// slot and the reader sees a value twice or not at all: FAIL under the
// other models.
#include <assert.h>
#include <pthread.h>

#define SIZE 2
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t notfull = PTHREAD_COND_INITIALIZER, notempty = PTHREAD_COND_INITIALIZER;
static int buf[SIZE], wr, rd, count;

static void *writer(void *arg) {
  int v = (int)(long)arg;
  pthread_mutex_lock(&m);
  while (count == SIZE)
    pthread_cond_wait(&notfull, &m);
  buf[wr % SIZE] = v;
  count++;
#ifndef BUG
  wr++;
#endif
  pthread_cond_signal(&notempty);
  pthread_mutex_unlock(&m);
#ifdef BUG
  wr++;
#endif
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  int seen = 0;
  for (int k = 0; k < 2; k++) {
    pthread_mutex_lock(&m);
    while (count == 0)
      pthread_cond_wait(&notempty, &m);
    seen |= buf[rd % SIZE];
    rd++;
    count--;
    pthread_cond_signal(&notfull);
    pthread_mutex_unlock(&m);
  }
  assert(seen == 3);
  return 0;
}

int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, writer, (void *)1L);
  pthread_create(&t[1], 0, writer, (void *)2L);
  pthread_create(&t[2], 0, reader, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
