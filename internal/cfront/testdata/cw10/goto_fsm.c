// A goto-based state machine (the style of generated protocol code): a
// consumer reads a message byte by byte from a buffer a producer fills,
// each byte published by a release store of the count and read by an
// acquire load; states are labels. The message is "<ab>": the machine
// accepts it and counts the body's letters. Default: PASS everywhere.
// -D BUG: the count is published with a relaxed store: the consumer may
// see the count before the byte (RACE under rc11/imm, a plain byte; sc
// and x86 keep the order: PASS; aarch64, power, riscv: FAIL).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BUG
#define PUB memory_order_relaxed
#else
#define PUB memory_order_release
#endif

static char buf[4];
static atomic_int count;

static void *producer(void *arg) {
  (void)arg;
  const char msg[4] = {'<', 'a', 'b', '>'};
  for (int i = 0; i < 4; i++) {
    buf[i] = msg[i];
    atomic_store_explicit(&count, i + 1, PUB);
  }
  return 0;
}

static int next_pos;
static int get(void) {
  while (atomic_load_explicit(&count, memory_order_acquire) <= next_pos)
    ;
  return buf[next_pos++];
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, producer, 0);
  int letters = 0, c;
start:
  c = get();
  if (c != '<')
    goto reject;
body:
  c = get();
  if (c == '>')
    goto accept;
  if (c < 'a' || c > 'z')
    goto reject;
  letters++;
  goto body;
reject:
  assert(0 && "rejected");
accept:
  pthread_join(p, 0);
  assert(letters == 2);
  return 0;
}
