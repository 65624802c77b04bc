// A 2-D global grid, each thread filling its own row from a VLA scratch
// buffer and an alloca'd one, both sized by a parameter (COLS), then returning a
// struct of statistics copied by value through its argument record.
// After the joins main copies the records and checks them. PASS under
// every model.
// -DBUG: thread 1 writes its last cell into row 0 instead of row 1, the
// cell thread 0 writes (RACE under rc11 and imm; FAIL under sc and the
// targets, whichever write comes last).
// -DDYN: the size is read from the argument record (a->n): a size only
// known from memory, which Musket refuses by name (it makes one object
// of one size per allocation).
#include <pthread.h>
#include <assert.h>
#include <alloca.h>
#define ROWS 2
#define COLS 3
static int grid[ROWS][COLS];
struct stats {
  int min, max, sum;
};
struct arg {
  int row, n;
  struct stats out;
};
static void fill_row(struct arg *a, int n) {
  int vla[n];
  int *tmp = alloca(n * sizeof(int));
  for (int c = 0; c < n; c++) {
    vla[c] = a->row * 10 + c;
    tmp[c] = vla[c] * 2;
  }
  struct stats s = {tmp[0], tmp[0], 0};
  for (int c = 0; c < n; c++) {
    int r = a->row;
#ifdef BUG
    if (r == 1 && c == COLS - 1)
      r = 0;
#endif
    grid[r][c] = tmp[c];
    s.sum += tmp[c];
    if (tmp[c] < s.min)
      s.min = tmp[c];
    if (tmp[c] > s.max)
      s.max = tmp[c];
  }
  a->out = s;
}
static void *fill(void *p) {
  struct arg *a = p;
#ifdef DYN
  fill_row(a, a->n);
#else
  fill_row(a, COLS);
#endif
  return NULL;
}
int main(void) {
  pthread_t t[ROWS];
  struct arg args[ROWS];
  for (int r = 0; r < ROWS; r++) {
    args[r].row = r;
    args[r].n = COLS;
    pthread_create(&t[r], NULL, fill, &args[r]);
  }
  for (int r = 0; r < ROWS; r++)
    pthread_join(t[r], NULL);
  for (int r = 0; r < ROWS; r++) {
    struct stats s = args[r].out;
    assert(s.min == grid[r][0] && s.max == grid[r][COLS - 1]);
    assert(s.sum == grid[r][0] + grid[r][1] + grid[r][2]);
  }
  return 0;
}
