// An off-by-one through a pointer handed to a thread: the worker fills
// buf[0..N] through p[i], one element past the end under -DBUG (into
// whatever follows buf: undefined behaviour, an invalid memory access
// for Musket's SMT engine). The graph engine used to give the address
// past the end a location of its own and answer PASS (auto: PASS),
// where the SMT engine answers FAIL; it now refuses such an access, and
// auto answers FAIL. Natively the write lands on total (the next
// object), and main's check fails on every run. Correct: PASS everywhere.
#include <pthread.h>
#include <assert.h>
#define N 4
static int buf[N];
static int total;
static void *fill(void *arg) {
  int *p = arg;
#ifdef BUG
  for (int i = 0; i <= N; i++)
#else
  for (int i = 0; i < N; i++)
#endif
    p[i] = i + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  int *volatile where = buf;
  pthread_create(&t, 0, fill, where);
  pthread_join(t, 0);
  for (int i = 0; i < N; i++)
    total += buf[i];
  assert(total == 10);
  return 0;
}
