// A 3x4 matrix (a 2D array) filled row by row by three workers, each
// given its row through a pointer to an array of 4 ints; main checks the
// row sums and the column sums. Default: PASS everywhere. -D BUG: worker
// 2 fills row 1 as well as its own (an off-by-one in its loop's start):
// it races with worker 1 on row 1 (RACE under rc11/imm); elsewhere
// row 1 may hold worker 2's values: FAIL.
#include <assert.h>
#include <pthread.h>

#define R 3
#define C 4
static int m[R][C];

static void *fill(void *arg) {
  int r = (int)(long)arg;
  int (*row)[C] = &m[r];
  int from = r;
#ifdef BUG
  if (r == 2)
    from = 1;
#endif
  for (int k = from; k <= r; k++)
    for (int j = 0; j < C; j++)
      m[k][j] = (r + 1) * 10 + j;
  (void)row;
  return 0;
}

int main(void) {
  pthread_t t[R];
  for (long i = 0; i < R; i++)
    pthread_create(&t[i], 0, fill, (void *)i);
  for (int i = 0; i < R; i++)
    pthread_join(t[i], 0);
  for (int i = 0; i < R; i++) {
    int s = 0;
    for (int j = 0; j < C; j++)
      s += m[i][j];
    assert(s == 4 * (i + 1) * 10 + 6);
  }
  int col = 0;
  for (int i = 0; i < R; i++)
    col += m[i][3];
  assert(col == 69);
  return 0;
}
