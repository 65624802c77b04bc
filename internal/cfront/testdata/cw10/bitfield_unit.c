// Bit-fields: a status word with a 1-bit ready flag, a 3-bit count and a
// 4-bit owner. Adjacent bit-fields are one memory location (C11 3.14):
// two threads that write different bit-fields of the same unit without
// synchronisation race, and a read-modify-write of the unit can lose the
// other's bits. Default: each worker updates its field under a mutex:
// PASS everywhere. -D BUG: no mutex: a data race (RACE under rc11/imm);
// elsewhere a lost update of the other's bit-field: FAIL.
#include <assert.h>
#include <pthread.h>

struct status {
  unsigned ready : 1;
  unsigned count : 3;
  unsigned owner : 4;
};

static struct status st;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *counter(void *arg) {
  (void)arg;
#ifndef BUG
  pthread_mutex_lock(&mu);
#endif
  st.count = st.count + 5;
#ifndef BUG
  pthread_mutex_unlock(&mu);
#endif
  return 0;
}

static void *owner(void *arg) {
  (void)arg;
#ifndef BUG
  pthread_mutex_lock(&mu);
#endif
  st.owner = 9;
  st.ready = 1;
#ifndef BUG
  pthread_mutex_unlock(&mu);
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, counter, 0);
  pthread_create(&b, 0, owner, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(st.count == 5 && st.owner == 9 && st.ready == 1);
  return 0;
}
