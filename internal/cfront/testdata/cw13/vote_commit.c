// A two-phase commit with nondeterministic votes (SV-COMP's
// __VERIFIER_nondet_int and __VERIFIER_assume choose each vote, 0 or
// 1): two participants publish their vote with a release store; the
// coordinator waits for both (acquire), decides commit only if both
// voted yes, and publishes the decision; each participant then checks
// it never commits against its own no.
// Default: PASS under every model.
// -D BUG: the "voted" flags are relaxed: the vote fields race under
// rc11 and imm (R); aarch64, power and riscv may let the coordinator
// read a vote's initial "yes" after it saw the flag, and commit against
// a participant's no (FAIL); x86 and sc PASS (stores and loads stay in
// order).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

#ifdef BUG
#define VOTED_ST memory_order_relaxed
#define VOTED_LD memory_order_relaxed
#else
#define VOTED_ST memory_order_release
#define VOTED_LD memory_order_acquire
#endif

static int vote[2] = {1, 1}; // "yes" until a participant votes
static atomic_int voted[2];
static atomic_int decision; // 0 undecided, 1 commit, 2 abort

static void *participant(void *arg) {
  int i = (int)(long)arg;
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v == 0 || v == 1);
  vote[i] = v;
  atomic_store_explicit(&voted[i], 1, VOTED_ST);
  int d;
  while (!(d = atomic_load_explicit(&decision, memory_order_acquire)))
    ;
  assert(!(d == 1 && v == 0));
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, participant, (void *)i);
  for (int i = 0; i < 2; i++)
    while (!atomic_load_explicit(&voted[i], VOTED_LD))
      ;
  int yes = vote[0] && vote[1];
  atomic_store_explicit(&decision, yes ? 1 : 2, memory_order_release);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
