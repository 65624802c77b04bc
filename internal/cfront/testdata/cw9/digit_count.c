// Two threads count the digits and the upper-case letters of the two
// halves of a shared text with <ctype.h>'s macros (glibc's class table)
// and add them to atomic totals; main checks the totals and tolower/
// toupper of a few characters. Default: PASS everywhere. -D BUG: the
// second half starts one character early and the counters are plain
// ints: a data race (RACE under rc11/imm) and a lost update or a digit
// counted twice (FAIL elsewhere).
#include <assert.h>
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>

static const char text[] = "a1B2 c3D!";
#ifdef BUG
static int digits, uppers;
#define ADD(x, n) ((x) += (n))
#define START 3
#else
static atomic_int digits, uppers;
#define ADD(x, n) atomic_fetch_add(&(x), (n))
#define START 4
#endif

static void *count(void *arg) {
  long half = (long)arg;
  int from = half ? START : 0, to = half ? 9 : 4;
  int d = 0, u = 0;
  for (int i = from; i < to; i++) {
    if (isdigit((unsigned char)text[i]))
      d++;
    if (isupper((unsigned char)text[i]))
      u++;
  }
  ADD(digits, d);
  ADD(uppers, u);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, count, (void *)0L);
  pthread_create(&b, 0, count, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(digits == 3 && uppers == 2);
  assert(toupper('q') == 'Q' && tolower('Q') == 'q' && tolower('!') == '!' && isspace(text[4]));
  return 0;
}
