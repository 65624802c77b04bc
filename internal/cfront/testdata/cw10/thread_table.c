// Thread start routines taken from a static table of function pointers
// in a struct (Dartagnan's funcPtrInStaticMemory shape): main creates one
// thread per entry, passing the entry's argument, and checks what each
// returned through pthread_join. Default: PASS everywhere. -D BUG: the
// table's second routine returns its argument plus one instead of times
// two: FAIL everywhere (no race).
#include <assert.h>
#include <pthread.h>

struct task {
  void *(*run)(void *);
  long arg;
  long want;
};

static void *negate(void *a) { return (void *)-(long)a; }
#ifdef BUG
static void *twice(void *a) { return (void *)((long)a + 1); }
#else
static void *twice(void *a) { return (void *)((long)a * 2); }
#endif

static struct task tasks[2] = {{negate, 5, -5}, {twice, 21, 42}};

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, tasks[i].run, (void *)tasks[i].arg);
  for (int i = 0; i < 2; i++) {
    void *r;
    pthread_join(t[i], &r);
    assert((long)r == tasks[i].want);
  }
  return 0;
}
