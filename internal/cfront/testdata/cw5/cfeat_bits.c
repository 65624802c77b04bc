// Bitfields, unions and casts that mix sizes. Two threads update
// different bitfields of one flags word under a mutex (adjacent bitfields
// are one memory location in C11, so they must both lock); each thread
// also does little-endian type punning through a union of its own and
// checks narrowing and widening casts. PASS under every model.
// -DBUG: the first thread sets its bitfield without the lock: it races
// with the second thread's read-modify-write of the same word (RACE
// under rc11 and imm) and one update can be lost (FAIL under sc and the
// targets).
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
struct flags {
  unsigned ready : 1;
  unsigned count : 3;
  unsigned owner : 4;
};
static struct flags f;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
union pun {
  uint32_t w;
  uint16_t h[2];
  uint8_t b[4];
};
static int punning(uint32_t w) {
  union pun u;
  u.w = w;
  u.h[1] = 0xBEEF;
  return u.b[0] == (uint8_t)w && u.b[3] == 0xBE && u.w == ((w & 0xFFFFu) | 0xBEEF0000u);
}
static void *t1(void *arg) {
  (void)arg;
#ifndef BUG
  pthread_mutex_lock(&m);
#endif
  f.ready = 1;
#ifndef BUG
  pthread_mutex_unlock(&m);
#endif
  assert(punning(0x01020304u));
  assert((int8_t)300 == 44 && (uint16_t)-1 == 65535 && (int)(int16_t)0x8000 == -32768);
  return NULL;
}
static void *t2(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  f.count = 5;
  f.owner = 9;
  pthread_mutex_unlock(&m);
  assert(punning(0xA0B0C0D0u));
  int64_t big = (int64_t)(uint32_t)-2;
  assert(big == 4294967294LL && (uint8_t)(big >> 1) == 0xFF);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(f.ready == 1 && f.count == 5 && f.owner == 9);
  return 0;
}
