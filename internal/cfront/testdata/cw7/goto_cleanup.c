// Linux-style error paths: a function takes a lock, validates, and
// leaves through `goto out_unlock` / `goto out` labels; a switch with
// deliberate fallthrough computes the cost of a request kind. Two
// threads submit requests (one invalid) against a shared budget.
// Default: PASS under every model.
// -DBUG: the invalid-request path jumps to `out` past the unlock, so the
// lock stays held and the other thread waits forever: no execution
// finishes its checks except those where the failing thread goes second,
// and then main's join waits forever too: a deadlock, which Musket
// leaves without a verdict (PASS) unless -liveness is given, as GenMC
// without --check-liveness (so BUG is PASS here; see the table).
// -DBUG2: the budget is charged before the lock is taken: RACE under
// rc11 and imm, a lost update (FAIL) under the others.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

enum kind { K_READ, K_WRITE, K_SYNC, K_BAD };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int budget = 100;
static int served;

static int cost(enum kind k) {
  int c = 0;
  switch (k) {
  case K_SYNC:
    c += 5; /* a sync also writes */
    /* fallthrough */
  case K_WRITE:
    c += 3; /* a write also reads */
    /* fallthrough */
  case K_READ:
    c += 1;
    break;
  default:
    c = -1;
  }
  return c;
}

static int submit(enum kind k) {
  int ret = 0;
  int c = cost(k);
#ifdef BUG2
  budget -= c > 0 ? c : 0;
#endif
  pthread_mutex_lock(&lock);
  if (c < 0) {
    ret = -EINVAL;
#ifdef BUG
    goto out;
#else
    goto out_unlock;
#endif
  }
  if (budget < c) {
    ret = -ENOSPC;
    goto out_unlock;
  }
#ifndef BUG2
  budget -= c;
#endif
  served++;
out_unlock:
  pthread_mutex_unlock(&lock);
out:
  return ret;
}

static void *client(void *arg) {
  enum kind *ks = arg;
  for (int i = 0; i < 2; i++)
    submit(ks[i]);
  return 0;
}

int main(void) {
  static enum kind a[2] = {K_SYNC, K_BAD}, b[2] = {K_WRITE, K_READ};
  pthread_t x, y;
  pthread_create(&x, 0, client, a);
  pthread_create(&y, 0, client, b);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(served == 3 && budget == 100 - 9 - 4 - 1);
  return 0;
}
