// A connection's state machine: an _Atomic enum advanced by
// compare-and-swap, one transition per step, with a switch that falls
// through to count the work a jump of several states implies; the
// transitions are a const table of designated initialisers. Two threads
// try to advance the same connection from CONNECTING: exactly one wins
// each transition.
// Default: PASS under every model.
// -DBUG: the transition is a load then a store (no CAS): both threads
// can make the same transition and count its work twice: RACE is not
// possible (the accesses are atomic), so FAIL under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

typedef enum { ST_IDLE, ST_CONNECTING, ST_OPEN, ST_CLOSING, ST_CLOSED, ST_COUNT } state_t;

static const state_t next_state[ST_COUNT] = {
    [ST_IDLE] = ST_CONNECTING,
    [ST_CONNECTING] = ST_OPEN,
    [ST_OPEN] = ST_CLOSING,
    [ST_CLOSING] = ST_CLOSED,
    [ST_CLOSED] = ST_CLOSED,
};

static _Atomic state_t conn = ST_CONNECTING;
static atomic_int work;

static int work_of(state_t from) {
  int w = 0;
  switch (from) {
  case ST_IDLE:
    w++;
  case ST_CONNECTING:
    w++;
  case ST_OPEN:
    w++;
    break;
  case ST_CLOSING:
  case ST_CLOSED:
  default:
    break;
  }
  return w;
}

static int advance(void) {
  state_t s = atomic_load(&conn);
  if (s == ST_CLOSED)
    return 0;
#ifdef BUG
  atomic_store(&conn, next_state[s]);
#else
  if (!atomic_compare_exchange_strong(&conn, &s, next_state[s]))
    return 0;
#endif
  atomic_fetch_add(&work, work_of(s));
  return 1;
}

static void *stepper(void *arg) {
  (void)arg;
  advance();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, stepper, 0);
  pthread_create(&b, 0, stepper, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  state_t s = atomic_load(&conn);
  int w = atomic_load(&work);
  /* CONNECTING->OPEN costs 2, OPEN->CLOSING 1 */
  assert((s == ST_OPEN && w == 2) || (s == ST_CLOSING && w == 3));
  return 0;
}
