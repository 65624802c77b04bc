// memset, memcpy and memcmp on shared memory: a writer memsets a
// 16-byte record to 0xAB, memcpys a header into its first 4 bytes and
// publishes it (release); the reader, after an acquire, compares it with
// memcmp against a local copy it builds the same way. After the joins
// main clears the record with memset and checks it with memcmp against
// a zero buffer; memcmp's sign is checked on bytes and on ints (their
// low byte first). PASS everywhere.
// -DBUG: the reader's expected copy has another header byte: memcmp
// finds the difference (FAIL under every model).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <string.h>
static unsigned char rec[16];
static atomic_int ready;
static int ints[2];
static const unsigned char header[4] = {'M', 'S', 'K', 1};
static void *writer(void *arg) {
  (void)arg;
  memset(rec, 0xAB, sizeof rec);
  memcpy(rec, header, sizeof header);
  ints[0] = 0x100;
  ints[1] = 1;
  atomic_store_explicit(&ready, 1, memory_order_release);
  return NULL;
}
static void *reader(void *arg) {
  (void)arg;
  unsigned char want[16];
  memset(want, 0xAB, sizeof want);
  memcpy(want, header, sizeof header);
#ifdef BUG
  want[3] = 2;
#endif
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    ;
  assert(memcmp(rec, want, sizeof rec) == 0);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  /* memcmp's sign: bytes compared unsigned, in address order (an int's
     low byte first on little-endian machines). */
  rec[2] = 'A';
  assert(memcmp(rec, header, 4) < 0 && memcmp(header, rec, 3) > 0);
  static const int lowfirst[2] = {0x1, 2};
  assert(memcmp(ints, lowfirst, sizeof ints) < 0);
  static const unsigned char zero[16];
  memset(rec, 0, sizeof rec);
  assert(memcmp(rec, zero, 16) == 0);
  return 0;
}
