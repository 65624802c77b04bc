// Reference-count release with a release decrement and an acquire
// fence before destruction (the shape of Boost's intrusive_ptr and
// Rust's Arc): each owner writes into the object, drops its reference
// with fetch_sub(release); the last one fences with acquire, so every
// owner's writes happen before the destructor reads them (C11 7.17.4p2)
// and frees the object.
// Default: PASS under every model.
// -D BUG: no acquire fence: the destructor's reads race with the other
// owner's writes under rc11 and imm (R); aarch64, power and riscv may
// read a stale field (FAIL); x86 and sc PASS.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct obj {
  atomic_int refs;
  int marks[2];
};

static struct obj *o;

static void put(struct obj *p) {
  if (atomic_fetch_sub_explicit(&p->refs, 1, memory_order_release) == 1) {
#ifndef BUG
    atomic_thread_fence(memory_order_acquire);
#endif
    assert(p->marks[0] == 1 && p->marks[1] == 1);
    free(p);
  }
}

static void *owner(void *arg) {
  int i = (int)(long)arg;
  struct obj *p = o;
  p->marks[i] = 1;
  put(p);
  return 0;
}

int main(void) {
  o = malloc(sizeof *o);
  atomic_init(&o->refs, 2);
  o->marks[0] = o->marks[1] = 0;
  pthread_t a, b;
  pthread_create(&a, 0, owner, (void *)0L);
  pthread_create(&b, 0, owner, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
