// Two threads convert the two halves of a shared buffer to upper case
// in place with toupper (glibc's table through its inline form), main
// checks the result and the function forms (isalpha)(c), (tolower)(c).
// Default: PASS everywhere. -D BUG: the halves overlap by one byte,
// which both threads read and write: a data race (RACE under rc11/imm;
// the result is still upper case: PASS elsewhere).
#include <assert.h>
#include <ctype.h>
#include <pthread.h>

static char buf[8] = "abcdef";
#ifdef BUG
#define MID 2
#else
#define MID 3
#endif

static void *upper(void *arg) {
  long half = (long)arg;
  int from = half ? MID : 0, to = half ? 6 : 3;
  for (int i = from; i < to; i++)
    buf[i] = (char)toupper((unsigned char)buf[i]);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, upper, (void *)0L);
  pthread_create(&b, 0, upper, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(buf[0] == 'A' && buf[2] == 'C' && buf[3] == 'D' && buf[5] == 'F' && buf[6] == 0);
  assert((isalpha)(buf[1]) && !(isalpha)('3') && (tolower)('F') == 'f');
  return 0;
}
