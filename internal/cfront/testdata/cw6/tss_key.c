// Thread-specific data: pthread_key_create, pthread_setspecific and
// pthread_getspecific (each thread keeps a pointer to its own counter
// in the key), and C11's tss_create/tss_set/tss_get for a second key.
// Each thread sees only what it set. PASS everywhere.
// -DBUG: the threads set the key to one shared counter instead of their
// own, so the increments race (RACE under rc11 and imm) and one can be
// lost (FAIL under sc and the targets).
#include <pthread.h>
#include <threads.h>
#include <assert.h>
#include <stdint.h>
static pthread_key_t key;
static tss_t key2;
static int counters[2];
static int shared_counter;
static void bump(void) {
  int *c = pthread_getspecific(key);
  (*c)++;
}
static void *worker(void *arg) {
  intptr_t id = (intptr_t)arg;
#ifdef BUG
  pthread_setspecific(key, &shared_counter);
#else
  pthread_setspecific(key, &counters[id]);
#endif
  tss_set(key2, (void *)(id + 7));
  bump();
  bump();
  assert((intptr_t)tss_get(key2) == id + 7);
  int *mine = pthread_getspecific(key);
  assert(*mine == 2);
  return NULL;
}
int main(void) {
  pthread_t t[2];
  pthread_key_create(&key, NULL);
  tss_create(&key2, NULL);
  assert(pthread_getspecific(key) == NULL);
  for (intptr_t i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(tss_get(key2) == NULL);
  pthread_key_delete(key);
  tss_delete(key2);
  return 0;
}
