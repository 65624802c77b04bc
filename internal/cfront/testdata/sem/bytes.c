// Byte copies: an int copied byte by byte through a char pointer, and a
// long read as its two halves and its bytes.
#include <assert.h>
#include <pthread.h>

int src = -2;
int dst;
long w;

void *t(void *a) {
  volatile char *s = (volatile char *)&src, *d = (volatile char *)&dst;
  for (int i = 0; i < 4; i++)
    d[i] = s[i];
  w = 0x0000000500000007L;
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(dst == -2);
  volatile int *half = (volatile int *)&w;
  assert(half[0] == 7 && half[1] == 5);
  volatile unsigned char *b = (volatile unsigned char *)&w;
  assert(b[0] == 7 && b[4] == 5 && b[7] == 0);
  volatile signed char *sb = (volatile signed char *)&src;
  assert(sb[0] == -2 && sb[1] == -1 && sb[3] == -1);
  return 0;
}
