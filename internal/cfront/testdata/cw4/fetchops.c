// Every atomic_fetch_* kind on a struct of atomics of mixed sizes (char,
// short, int, long long), N threads (3; -DN=2 for a small run) from an array, each reaching the
// struct through its argument record. Thread i: add i+1 to a long long,
// sub 1 from a short, or in bit i of a char, and out bit i of an int
// mask, xor 0x11 << i into an unsigned, and take a distinct ticket
// (fetch_add's result) stored in its own record. PASS everywhere.
// -DBUG: the or is done as a load then a store: a lost bit, FAIL under
// every model, sc included.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#ifndef N
#define N 3
#endif
struct counters {
  _Atomic long long sum;
  _Atomic short left;
  _Atomic unsigned char bits;
  atomic_int mask;
  atomic_uint parity;
  atomic_int ticket;
};
struct arg {
  struct counters *c;
  int id;
  int my_ticket;
};
struct counters shared = {0, N, 0, (1 << N) - 1, 0, 0};
void *worker(void *p) {
  struct arg *a = p;
  struct counters *c = a->c;
  atomic_fetch_add_explicit(&c->sum, (long long)a->id + 1, memory_order_relaxed);
  atomic_fetch_sub_explicit(&c->left, 1, memory_order_acq_rel);
#ifdef BUG
  unsigned char b = atomic_load_explicit(&c->bits, memory_order_relaxed);
  atomic_store_explicit(&c->bits, b | (unsigned char)(1u << a->id), memory_order_relaxed);
#else
  atomic_fetch_or_explicit(&c->bits, (unsigned char)(1u << a->id), memory_order_relaxed);
#endif
  atomic_fetch_and_explicit(&c->mask, ~(1 << a->id), memory_order_release);
  atomic_fetch_xor_explicit(&c->parity, 0x11u << a->id, memory_order_relaxed);
  a->my_ticket = atomic_fetch_add_explicit(&c->ticket, 1, memory_order_relaxed);
  return NULL;
}
int main(void) {
  pthread_t t[N];
  struct arg args[N];
  for (int i = 0; i < N; i++) {
    args[i].c = &shared;
    args[i].id = i;
    pthread_create(&t[i], NULL, worker, &args[i]);
  }
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  assert(atomic_load(&shared.sum) == N * (N + 1) / 2);
  assert(atomic_load(&shared.left) == 0);
  assert(atomic_load(&shared.bits) == (1 << N) - 1);
  assert(atomic_load(&shared.mask) == 0);
  assert(atomic_load(&shared.parity) == 0x11u * ((1u << N) - 1));
  int seen = 0;
  for (int i = 0; i < N; i++)
    seen |= 1 << args[i].my_ticket;
  assert(seen == (1 << N) - 1);
  return 0;
}
