// Packed and aligned structs. A packed wire header has a misaligned
// 32-bit field (offset 1) updated under a mutex by two threads; per-thread
// counters are padded to 64 bytes with _Alignas (no false sharing; each
// thread owns its slot, which main reads after the joins); a
// __attribute__((aligned(16))) array of shorts is read as a whole.
// Default: PASS under every model.
// -DBUG: both threads use slot 0 of the counters (a thread id off by
// one): RACE under rc11 and imm, a lost update (FAIL) under the others.
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct __attribute__((packed)) wire {
  uint8_t kind;
  uint32_t len; /* offset 1: misaligned */
  uint16_t crc;
};
_Static_assert(sizeof(struct wire) == 7, "packed");
_Static_assert(offsetof(struct wire, len) == 1, "misaligned");

struct slot {
  _Alignas(64) long count;
};
_Static_assert(sizeof(struct slot) == 64, "padded");

static struct wire hdr = {.kind = 7, .len = 0x01020304, .crc = 0xBEEF};
static struct slot slots[2];
static short table[4] __attribute__((aligned(16))) = {1, 2, 3, 4};
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
#ifdef BUG
  id = 0;
#endif
  pthread_mutex_lock(&m);
  hdr.len += 0x10;
  pthread_mutex_unlock(&m);
  for (int i = 0; i < 2; i++)
    slots[id].count += table[i + 2 * (id & 1)];
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (intptr_t i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(hdr.len == 0x01020324 && hdr.kind == 7 && hdr.crc == 0xBEEF);
  assert(slots[0].count + slots[1].count == 10);
  assert(((uintptr_t)&slots[1] & 63) == 0 && ((uintptr_t)table & 15) == 0);
  return 0;
}
