// Store-to-load forwarding over mixed sizes: a thread writes the low half
// of a word and reads the whole word back: it sees its own half together
// with the bytes of the initial value, on every model.
#include <assert.h>
#include <pthread.h>

union {
  volatile int whole;
  volatile short half[2];
} w = {.whole = 0x00050000};

void *t(void *p) {
  w.half[0] = 7;
  int v = w.whole;
  assert(v == 0x00050007);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(w.whole == 0x00050007 && w.half[1] == 5);
  return 0;
}
