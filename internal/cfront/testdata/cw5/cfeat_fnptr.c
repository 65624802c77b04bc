// Function pointers in data, varargs, recursion: each thread gets a
// task record holding an operation (a function pointer) and its operand,
// logs through a varargs wrapper around vprintf-like printf, and the
// final check sums a three-node list recursively. PASS under every
// model.
// -DBUG: the "dec" operation is a plain load and store: a lost update
// (FAIL under sc and the targets; RACE under rc11 and imm).
#include <pthread.h>
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdatomic.h>
static atomic_int counter = 10;
static void op_add(int v) { atomic_fetch_add(&counter, v); }
static void op_dec(int v) {
#ifdef BUG
  int c = *(int *)&counter;
  *(int *)&counter = c - v;
#else
  atomic_fetch_sub(&counter, v);
#endif
}
struct task {
  void (*op)(int);
  int arg;
  const char *name;
};
static int logf_(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = va_arg(ap, int);
  va_end(ap);
  printf("%s %d\n", fmt, n);
  return n;
}
static void *worker(void *p) {
  struct task *t = p;
  t->op(t->arg);
  logf_("did %d", t->arg);
  printf("%s(%d) done, %lu\n", t->name, t->arg, (unsigned long)sizeof *t);
  return NULL;
}
struct cell {
  int v;
  struct cell *next;
};
static int sum(const struct cell *c) { return c ? c->v + sum(c->next) : 0; }
int main(void) {
  struct task tasks[2] = {{op_add, 5, "add"}, {op_dec, 3, "dec"}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, &tasks[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  struct cell c3 = {atomic_load(&counter), NULL}, c2 = {2, &c3}, c1 = {1, &c2};
  assert(sum(&c1) == 1 + 2 + 12);
  return 0;
}
