// Char-wise access to an int: a 32-bit status word is written whole by
// one thread (under a mutex) and read byte by byte through an unsigned
// char pointer by another (under the same mutex), little-endian: the
// bytes are those of the whole value written last, never a mix. Casts
// between widths (a 16-bit view by memcpy into a local, sign and zero
// extension of a byte) are checked too.
// Default: PASS under every model.
// -DBUG: the reader takes the bytes without the lock: RACE under rc11
// and imm; under the other models no verdict can be given on a torn
// read (the models say nothing about mixed sizes) except aarch64, whose
// model gives it a meaning: the check of a torn value FAILs there.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

static uint32_t status = 0x11111111u;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *writer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  status = 0x22222222u;
  pthread_mutex_unlock(&m);
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  const unsigned char *b = (const unsigned char *)&status;
#ifndef BUG
  pthread_mutex_lock(&m);
#endif
  unsigned char b0 = b[0], b3 = b[3];
#ifndef BUG
  pthread_mutex_unlock(&m);
#endif
  assert(b0 == b3);
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  uint16_t half;
  memcpy(&half, (const char *)&status + 2, sizeof half);
  assert(half == 0x2222);
  signed char sc = (signed char)0xF0;
  unsigned char uc = (unsigned char)sc;
  assert((int)sc == -16 && (int)uc == 240 && (uint32_t)(int32_t)sc == 0xFFFFFFF0u);
  return 0;
}
