// A variadic helper, as logging and reduction code writes them: sum(n,
// ...) walks its arguments with va_arg; two workers call it with
// different argument counts and add the results into a shared total
// under a mutex; a second helper takes a va_list from a first (vsum).
// Default: PASS everywhere. -D BUG: a caller passes its arguments in the
// wrong order to the helper, whose arguments do not commute (first*1 +
// second*2 + ...): FAIL everywhere (no race).
#include <assert.h>
#include <pthread.h>
#include <stdarg.h>

static int vweighted(int n, va_list ap) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * va_arg(ap, int);
  return s;
}

static int weighted(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = vweighted(n, ap);
  va_end(ap);
  return s;
}

static long total;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *one(void *arg) {
  (void)arg;
  int s = weighted(2, 5, 7); // 5 + 14
  pthread_mutex_lock(&mu);
  total += s;
  pthread_mutex_unlock(&mu);
  return 0;
}

static void *two(void *arg) {
  (void)arg;
#ifdef BUG
  int s = weighted(3, 3, 2, 1);
#else
  int s = weighted(3, 1, 2, 3); // 1 + 4 + 9
#endif
  pthread_mutex_lock(&mu);
  total += s;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, one, 0);
  pthread_create(&b, 0, two, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 33);
  return 0;
}
