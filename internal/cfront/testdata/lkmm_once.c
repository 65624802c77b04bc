// Message passing with the Linux-kernel primitives that are accesses and
// fences (WRITE_ONCE, smp_wmb, smp_rmb, READ_ONCE): every model orders
// them by its own rules, so the program is checked under sc too.
#include <assert.h>
#include <musket/lkmm.h>
#include <pthread.h>

int data;
int flag;

void *writer(void *arg) {
  WRITE_ONCE(data, 42);
  smp_wmb();
  WRITE_ONCE(flag, 1);
  return NULL;
}

void *reader(void *arg) {
  if (READ_ONCE(flag) == 1) {
    smp_rmb();
    assert(READ_ONCE(data) == 42);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
