// SV-COMP pthread style: accounts in a struct array, each with its own
// mutex; two transfer threads described by a struct array of thread
// records move a nondeterministic amount (0..10, assumed) between the
// two accounts, locking both in index order. The total is constant: PASS
// under every model. reach_error and a __VERIFIER_assert of our own, as
// SV-COMP files define them.
// -DBUG: each thread locks only its source account, so its update of
// the destination races with the other thread's update of its source
// (RACE under rc11 and imm; a lost update under sc and the targets:
// FAIL). (Making only one thread careless is no bug: the other takes
// both locks, so any lock the careless one takes excludes it.)
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error(void) { assert(0); }
void __VERIFIER_assert(int cond) {
  if (!cond) {
  ERROR: { reach_error(); abort(); }
  }
}
struct account {
  pthread_mutex_t m;
  int balance;
} acct[2] = {{PTHREAD_MUTEX_INITIALIZER, 50}, {PTHREAD_MUTEX_INITIALIZER, 50}};
struct transfer {
  pthread_t tid;
  int from, to, amount, careless;
} tr[2];
void *mover(void *p) {
  struct transfer *t = (struct transfer *)p;
  int lo = t->from < t->to ? t->from : t->to;
  int hi = t->from < t->to ? t->to : t->from;
  if (t->careless) {
    pthread_mutex_lock(&acct[t->from].m);
  } else {
    pthread_mutex_lock(&acct[lo].m);
    pthread_mutex_lock(&acct[hi].m);
  }
  acct[t->from].balance -= t->amount;
  acct[t->to].balance += t->amount;
  if (t->careless) {
    pthread_mutex_unlock(&acct[t->from].m);
  } else {
    pthread_mutex_unlock(&acct[hi].m);
    pthread_mutex_unlock(&acct[lo].m);
  }
  return NULL;
}
int main(void) {
  for (int i = 0; i < 2; i++) {
    tr[i].from = i;
    tr[i].to = 1 - i;
    tr[i].amount = __VERIFIER_nondet_int();
    __VERIFIER_assume(tr[i].amount >= 0 && tr[i].amount <= 10);
#ifdef BUG
    tr[i].careless = 1;
#else
    tr[i].careless = 0;
#endif
  }
  for (int i = 0; i < 2; i++)
    pthread_create(&tr[i].tid, NULL, mover, &tr[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(tr[i].tid, NULL);
  __VERIFIER_assert(acct[0].balance + acct[1].balance == 100);
  return 0;
}
