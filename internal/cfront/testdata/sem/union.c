// A union's int member written, then its short member: reading the int
// back sees the short's bytes over the int's low half (little endian).
#include <assert.h>
#include <pthread.h>

union U {
  int i;
  short s;
} u;

void *t(void *a) {
  u.i = 0x12345678;
  u.s = 0x1111;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(u.i == 0x12341111);
  assert(u.s == 0x1111);
  return 0;
}
