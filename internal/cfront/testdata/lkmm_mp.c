// Message passing with the Linux-kernel primitives of musket/lkmm.h:
// smp_store_release / smp_load_acquire, a spinlock-protected counter and
// an atomic_t.
#include <assert.h>
#include <musket/lkmm.h>
#include <pthread.h>

int data;
int flag;
atomic_t hits = ATOMIC_INIT(0);
DEFINE_SPINLOCK(lk);
int counter;

void *writer(void *arg) {
  WRITE_ONCE(data, 42);
  smp_store_release(&flag, 1);
  atomic_inc(&hits);
  spin_lock(&lk);
  counter++;
  spin_unlock(&lk);
  return NULL;
}

void *reader(void *arg) {
  if (smp_load_acquire(&flag) == 1)
    assert(READ_ONCE(data) == 42);
  atomic_add_return(1, &hits);
  spin_lock(&lk);
  counter++;
  spin_unlock(&lk);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(atomic_read(&hits) == 2);
  assert(counter == 2);
  return 0;
}
