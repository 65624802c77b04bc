// Two workers parse hexadecimal identifiers with strtoul (base 16 with
// and without 0x, and base 0) from a shared read-only table, each
// claiming the ids it parsed in an atomic bitmap with fetch_or; main
// checks the map and a value past ULONG_MAX (ERANGE). Default: PASS
// everywhere. -D BUG: the claims are plain read-then-write of a shared
// word: a data race (RACE under rc11/imm, a lost bit: FAIL elsewhere).
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

static const char *ids[4] = {"0x3", "a", "0X5", "1"};
#ifdef BUG
static unsigned long map;
#define CLAIM(b) (map |= (b))
#else
static atomic_ulong map;
#define CLAIM(b) atomic_fetch_or(&map, (b))
#endif

static void *parse(void *arg) {
  long k = (long)arg;
  for (int i = (int)k * 2; i < (int)k * 2 + 2; i++) {
    unsigned long v = i % 2 ? strtoul(ids[i], 0, 16) : strtoul(ids[i], 0, 0);
    CLAIM(1ul << v);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, parse, (void *)0L);
  pthread_create(&b, 0, parse, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(map == ((1ul << 3) | (1ul << 10) | (1ul << 5) | (1ul << 1)));
  errno = 0;
  char big[24] = "18446744073709551616";
  assert(strtoul(big, 0, 10) == ULONG_MAX && errno == ERANGE);
  return 0;
}
