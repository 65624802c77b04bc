// Memory locations and bit fields (C11 3.14): a bit field and an
// adjacent member that is not a bit field are separate memory
// locations, so two threads may write them under different mutexes;
// two adjacent bit fields are one memory location, and writing them
// from two threads is a data race (the compiler writes the whole unit).
// Default: flags is a bit field, count a char member: PASS under every
// model.
// -D BUG: count is a bit field too: a race under rc11 and imm (R); the
// generated read-modify-write of the shared unit can undo the other
// thread's write: FAIL under the other models, sc included.
#include <assert.h>
#include <pthread.h>

struct dev {
  unsigned flags : 4;
#ifdef BUG
  unsigned count : 8;
#else
  unsigned char count;
#endif
};

static struct dev d;
static pthread_mutex_t mf = PTHREAD_MUTEX_INITIALIZER, mc = PTHREAD_MUTEX_INITIALIZER;

static void *set_flags(void *a) {
  (void)a;
  pthread_mutex_lock(&mf);
  d.flags = 5;
  pthread_mutex_unlock(&mf);
  return 0;
}

static void *bump(void *a) {
  (void)a;
  pthread_mutex_lock(&mc);
  d.count = 9;
  pthread_mutex_unlock(&mc);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, set_flags, 0);
  pthread_create(&b, 0, bump, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(d.flags == 5 && d.count == 9);
  return 0;
}
