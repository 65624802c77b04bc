// An aligned 8-byte store and an aligned 8-byte load of a word whose
// halves are also accessed alone: on the hardware the whole accesses are
// single-copy atomic, so the load never sees half of the store.
#include <assert.h>
#include <pthread.h>

union {
  volatile long whole;
  volatile int half[2];
} u;

void *writer(void *p) {
  u.whole = 0x100000001L;
  return 0;
}

void *reader(void *p) {
  long v = u.whole;
  assert(v == 0 || v == 0x100000001L);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(u.half[0] == 1);
  return 0;
}
