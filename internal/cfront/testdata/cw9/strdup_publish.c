// A producer makes a message with strdup and publishes the pointer with
// a release store; the consumer waits for it with acquire loads and
// checks its characters and strlen. Default: PASS everywhere. -D BUG:
// relaxed publication: the consumer may see the pointer before the
// characters (FAIL under rc11/imm/aarch64/power/riscv; sc and x86 keep
// the order: PASS).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#ifdef BUG
#define PUB memory_order_relaxed
#define SUB memory_order_relaxed
#else
#define PUB memory_order_release
#define SUB memory_order_acquire
#endif

static _Atomic(char *) msg;
static char src[8] = "ping";

static void *producer(void *arg) {
  (void)arg;
  char *m = strdup(src);
  atomic_store_explicit(&msg, m, PUB);
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  char *m;
  while ((m = atomic_load_explicit(&msg, SUB)) == 0)
    ;
  assert(m[0] == 'p' && m[3] == 'g');
  assert(strlen(m) == 4);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, 0);
  pthread_create(&b, 0, consumer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
