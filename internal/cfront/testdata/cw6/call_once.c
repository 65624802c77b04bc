// C11 call_once and POSIX pthread_once side by side: two threads each
// ask for two lazily built tables; each init function runs once and the
// table it fills is seen complete by both callers (once gives
// happens-before from the init's end to every return). PASS everywhere.
// -DBUG: the second table uses a hand-made "once" on a plain flag: both
// threads may see it unset and both build it (counted: FAIL), and the
// flag itself races (RACE under rc11 and imm).
#include <threads.h>
#include <pthread.h>
#include <assert.h>
static once_flag c11_once = ONCE_FLAG_INIT;
static pthread_once_t px_once = PTHREAD_ONCE_INIT;
static int table_a[4], table_b[4];
static int builds_a, builds_b;
static void build_a(void) {
  builds_a++;
  for (int i = 0; i < 4; i++)
    table_a[i] = i * i;
}
static void build_b(void) {
  builds_b++;
  for (int i = 0; i < 4; i++)
    table_b[i] = i + 100;
}
#ifdef BUG
static int b_ready;
static void get_b(void) {
  if (!b_ready) {
    build_b();
    b_ready = 1;
  }
}
#else
static void get_b(void) { pthread_once(&px_once, build_b); }
#endif
static void *user(void *arg) {
  int k = (int)(long)arg;
  call_once(&c11_once, build_a);
  assert(table_a[k + 1] == (k + 1) * (k + 1));
  get_b();
  assert(table_b[3 - k] == 103 - k);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, user, (void *)0L);
  pthread_create(&b, NULL, user, (void *)1L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(builds_a == 1);
  assert(builds_b == 1);
  return 0;
}
