// _Thread_local beyond __thread: a thread-local array with an
// initializer, a static _Thread_local inside a function (a per-thread
// call count), and a pointer to one thread's thread-local object handed
// to another thread, which writes through it (the object is an ordinary
// object of the owner thread: the write is seen by the owner after a
// release/acquire handshake). PASS everywhere.
// -DBUG: the owner reads its thread-local slot before the handshake:
// RACE under rc11 and imm; FAIL under sc and the targets.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
static _Thread_local int slots[3] = {1, 2, 3};
static int *_Atomic shared_slot;
static atomic_int written;
static int calls(void) {
  static _Thread_local int count;
  return ++count;
}
static void *owner(void *arg) {
  (void)arg;
  calls();
  slots[1] = 20;
  atomic_store_explicit(&shared_slot, &slots[2], memory_order_release);
#ifdef BUG
  assert(slots[2] == 30);
#endif
  while (!atomic_load_explicit(&written, memory_order_acquire))
    ;
  assert(slots[2] == 30 && slots[1] == 20 && slots[0] == 1);
  assert(calls() == 2);
  return NULL;
}
static void *helper(void *arg) {
  (void)arg;
  int *p;
  while (!(p = atomic_load_explicit(&shared_slot, memory_order_acquire)))
    ;
  *p = 30;
  slots[2] = 99; /* the helper's own copy */
  atomic_store_explicit(&written, 1, memory_order_release);
  assert(calls() == 1);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, owner, NULL);
  pthread_create(&b, NULL, helper, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(slots[0] == 1 && slots[1] == 2 && slots[2] == 3);
  return 0;
}
