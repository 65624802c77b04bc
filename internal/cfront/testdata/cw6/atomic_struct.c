// _Atomic structs and _Atomic fields: a pair {int lo, hi} held in an
// _Atomic struct (one 8-byte atomic object: loaded and stored whole, and
// updated with a compare-exchange loop on the whole struct), and a
// struct with _Atomic fields of different sizes beside plain ones. The
// writer keeps lo + hi == 100 in every version; a reader checks it.
// PASS everywhere. atomic_init's value is two 4-byte plain stores
// (clang splits the struct), beside 8-byte atomics on the same bytes:
// Musket refused it (UNSUPPORTED, a mixed-size question) under every
// model but aarch64 until main's first stores were joined
// (initmerge.go).
// -DBADINIT: the initial version breaks the invariant (50 + 49): the
// reader may see it (FAIL under every model); the reader also checks
// lo's value, which a wrong byte order of the joined store would break.
// -DBUG: the pair is kept in two separate _Atomic ints, written one
// after the other: a reader may see lo new and hi old (FAIL under every
// model, including sc).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
struct pair {
  int lo, hi;
};
struct stats {
  _Atomic uint8_t flags;
  short plain;
  _Atomic long long events;
};
#ifdef BUG
static _Atomic int lo = 50, hi = 50;
static void put(int l, int h) {
  atomic_store(&lo, l);
  atomic_store(&hi, h);
}
static struct pair get(void) {
  struct pair p = {atomic_load(&lo), atomic_load(&hi)};
  return p;
}
#else
static _Atomic struct pair cur; /* set by atomic_init in main */
static void put(int l, int h) {
  struct pair old = atomic_load(&cur);
  struct pair nw = {l, h};
  while (!atomic_compare_exchange_weak(&cur, &old, nw))
    ;
}
static struct pair get(void) { return atomic_load(&cur); }
#endif
static struct stats st = {.plain = 5};
static void *writer(void *arg) {
  (void)arg;
  put(30, 70);
  atomic_fetch_or(&st.flags, 2);
  atomic_fetch_add(&st.events, 1);
  return NULL;
}
static void *reader(void *arg) {
  (void)arg;
  struct pair p = get();
  assert(p.lo + p.hi == 100);
  assert(p.lo == 50 || p.lo == 30);
  atomic_fetch_or(&st.flags, 1);
  atomic_fetch_add(&st.events, 1);
  return NULL;
}
int main(void) {
  pthread_t w, r;
#ifndef BUG
#ifdef BADINIT
  atomic_init(&cur, ((struct pair){50, 49}));
#else
  atomic_init(&cur, ((struct pair){50, 50}));
#endif
#endif
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  struct pair p = get();
  assert(p.lo == 30 && p.hi == 70);
  assert(atomic_load(&st.flags) == 3 && atomic_load(&st.events) == 2 && st.plain == 5);
  return 0;
}
