// C11 <threads.h> only: thrd_create in a loop, mtx_t (mtx_plain), a
// cnd_t the workers signal when the last of them is done, and the
// workers' int results through thrd_join. main waits on the condition
// variable (while loop), then joins. PASS under every model.
// -DBUG: the workers add to the total without the mutex: RACE under
// rc11 and imm; an update can be lost under sc and the targets (FAIL).
#include <threads.h>
#include <assert.h>
#define N 2
static mtx_t m;
static cnd_t all_done;
static int total, finished;
static int worker(void *arg) {
  int k = *(int *)arg;
#ifdef BUG
  total += k;
  mtx_lock(&m);
#else
  mtx_lock(&m);
  total += k;
#endif
  if (++finished == N)
    cnd_signal(&all_done);
  mtx_unlock(&m);
  return k * 10;
}
int main(void) {
  thrd_t t[N];
  int args[N];
  if (mtx_init(&m, mtx_plain) != thrd_success || cnd_init(&all_done) != thrd_success)
    return 1;
  for (int i = 0; i < N; i++) {
    args[i] = i + 1;
    if (thrd_create(&t[i], worker, &args[i]) != thrd_success)
      return 1;
  }
  mtx_lock(&m);
  while (finished < N)
    cnd_wait(&all_done, &m);
  int seen = total;
  mtx_unlock(&m);
  assert(seen == 3);
  int sum = 0;
  for (int i = 0; i < N; i++) {
    int r;
    thrd_join(t[i], &r);
    sum += r;
  }
  assert(sum == 30);
  mtx_destroy(&m);
  cnd_destroy(&all_done);
  return 0;
}
