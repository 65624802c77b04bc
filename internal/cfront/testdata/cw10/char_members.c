// Adjacent char members of a struct are separate memory locations
// (C11 3.14): two workers write one each, concurrently, without a lock:
// no data race, and neither write may disturb the other byte. After the
// joins main copies the struct whole (a 4-byte copy clang makes one
// load) and checks it. Default: PASS everywhere. -D BUG: worker b
// writes its member through a short pointer that covers both members
// (as a careless memset of two bytes would): a data race with worker a
// (RACE under rc11/imm) and a lost write (FAIL elsewhere).
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct pair {
  char a, b;
  char c, d;
};

static struct pair p = {0, 0, 'c', 'd'};

static void *wa(void *arg) {
  (void)arg;
  p.a = 'x';
  return 0;
}

static void *wb(void *arg) {
  (void)arg;
#ifdef BUG
  memset(&p.a, 'y', 2);
  p.a = 0;
#else
  p.b = 'y';
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, wa, 0);
  pthread_create(&b, 0, wb, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  struct pair q = p;
  assert(q.a == 'x' && q.b == 'y' && q.c == 'c' && q.d == 'd');
  return 0;
}
