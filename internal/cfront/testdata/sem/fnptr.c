// Function pointers stored in data and called: the operation a thread
// finds in a table, and a pointer passed as an argument.
#include <assert.h>
#include <pthread.h>

typedef int (*op_t)(int);

int inc(int x) { return x + 1; }
int dbl(int x) { return 2 * x; }

op_t table[2] = {inc, dbl};
volatile int which = 1;
int out;

int apply(op_t f, int x) { return f(x); }

void *t(void *p) {
  op_t f = table[which];
  out = f(5) + apply(inc, 0);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(out == 11);
  assert(table[0] == inc && table[0] != table[1]);
  return 0;
}
