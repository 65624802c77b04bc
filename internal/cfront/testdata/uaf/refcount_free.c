// Reference counting: main makes an object with two references and
// gives one to each of two workers; each reads the object, then drops
// its reference; whoever drops the last frees the object.
// Default: the decrement is acq_rel: the other worker's read happens
// before its decrement (release), which the last decrement reads
// (acquire), so before the free. PASS everywhere.
// -DBUG: a relaxed decrement: in C11 nothing makes the first worker's
// read happen before the second's free (rc11, imm: a use after free);
// ARMv8 and RISC-V may perform the read after the other's decrement and
// free; sc, and x86 (whose locked decrement orders everything), do not:
// PASS there.
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifdef BUG
#define DEC memory_order_relaxed
#else
#define DEC memory_order_acq_rel
#endif

struct obj {
  int data;
  atomic_int refs;
};

static struct obj *shared;
static int sum[2];

static void put(struct obj *p) {
  if (atomic_fetch_sub_explicit(&p->refs, 1, DEC) == 1)
    free(p);
}

static void *user(void *arg) {
  long id = (long)arg;
  struct obj *p = shared;
  sum[id] = p->data;
  put(p);
  return NULL;
}

int main(void) {
  struct obj *o = malloc(sizeof *o);
  o->data = 42;
  atomic_init(&o->refs, 2);
  shared = o;
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, user, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return sum[0] + sum[1] == 84 ? 0 : 1;
}
