// What free accepts. A worker takes a heap record from main, uses it
// and frees it; main joins it.
// Default: PASS everywhere.
// -DDOUBLE: main frees the record too after the join: a double free
// (C11 7.22.3.3: undefined; glibc aborts "free(): double free detected",
// ASan: attempting double-free). FAIL "free: double free".
// -DGLOBAL: main frees a static variable's address; -DLOCAL: a local's
// (undefined; glibc "free(): invalid pointer", ASan: attempting free on
// address which was not malloc()-ed). FAIL "free of memory that malloc
// did not allocate".
// -DINTERIOR: the worker frees a pointer to the record's second field,
// not the one malloc returned (undefined; ASan: attempting free on
// address which was not malloc()-ed): FAIL (an invalid memory access:
// the pointer names no object's start).
// -DLEAK: nobody frees the record. Not an error of the C standard;
// GenMC does not report it by default, nor does Musket: PASS. (ASan's
// leak checker would, at exit: the native runs turn it off.)
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct rec {
  int id;
  int count;
};

static int not_heap;

static void *worker(void *arg) {
  struct rec *r = arg;
  r->count += r->id;
  int c = r->count;
#if defined(INTERIOR)
  free(&r->count);
#elif !defined(LEAK)
  free(r);
#endif
  assert(c == 3);
  return NULL;
}

int main(void) {
  struct rec *r = malloc(sizeof *r);
  r->id = 3;
  r->count = 0;
  pthread_t t;
  pthread_create(&t, NULL, worker, r);
  pthread_join(t, NULL);
#ifdef DOUBLE
  free(r);
#endif
#ifdef GLOBAL
  free(&not_heap);
#endif
#ifdef LOCAL
  int local = 0;
  free(&local);
#endif
  return not_heap;
}
