// A reference-counted object as libraries drop references: each of two
// threads reads the object's payload, drops its reference with a
// release fetch_sub, and only then checks what it read; the thread that drops the last one issues an
// acquire fence, poisons the payload (the destructor) and frees it. PASS
// under every model: the fence makes the other thread's read happen
// before the destructor's write.
// -DBUG: a relaxed fetch_sub and no fence: the read and the destructor's
// write race (RACE under rc11 and imm), and on aarch64 the read can see
// the poison (FAIL: nothing orders the read before the relaxed
// decrement's store, which the other thread can read first: load
// buffering); x86 and sc PASS. (With the check before the fetch_sub, its
// branch would be a control dependency ordering the read first, and
// aarch64 would PASS.)
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
struct obj {
  atomic_int refs;
  int payload;
};
static struct obj *shared;
static void put_ref(struct obj *o) {
#ifdef BUG
  if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_relaxed) == 1) {
#else
  if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_release) == 1) {
    atomic_thread_fence(memory_order_acquire);
#endif
    o->payload = -1;
    free(o);
  }
}
static void *user(void *arg) {
  struct obj *o = arg;
  int v = o->payload;
  put_ref(o);
  assert(v == 42);
  return NULL;
}
int main(void) {
  shared = malloc(sizeof *shared);
  atomic_init(&shared->refs, 2);
  shared->payload = 42;
  pthread_t a, b;
  pthread_create(&a, NULL, user, shared);
  pthread_create(&b, NULL, user, shared);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
