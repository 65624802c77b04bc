// More C a user's code has: a struct of two longs returned by value
// from a function clang keeps out of line (an aggregate built by
// insertvalue, returned, taken apart by extractvalue), a kernel-style
// container_of from an embedded link back to its item, a const table of
// function pointers called by index, and a table of string literals
// whose first letter is tested. Each thread works on its own item and
// result slot. PASS under every model (natively too).
// -DBUG: the letter tested is 'a' instead of 's': the bonus goes to the
// wrong thread (FAIL under every model, natively too).
// -DNOAGG: the pair is built in place, without mk: the string
// literals alone (before the fix Musket did not declare them: their
// reads saw no characters, and both verdicts were inverted).
#include <pthread.h>
#include <assert.h>
#include <stddef.h>
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#ifdef BUG
#define LETTER 'a'
#else
#define LETTER 's'
#endif
struct item {
  int key;
  struct link {
    struct link *next;
  } l;
  int val;
};
struct pair {
  long a, b;
};
__attribute__((noinline)) struct pair mk(long a, long b) { return (struct pair){a, b}; }
static const char *names[] = {"add", "sub"};
static int add1(int x) { return x + 1; }
static int sub1(int x) { return x - 1; }
static int (*const table[])(int) = {add1, sub1};
struct item items[2] = {{1, {0}, 10}, {2, {0}, 20}};
int res[2];
void *thr(void *arg) {
  int id = (int)(long)arg;
  struct link *lp = &items[id].l;
  struct item *it = container_of(lp, struct item, l);
#ifdef NOAGG
  struct pair p = {it->key, it->val};
#else
  struct pair p = mk(it->key, it->val);
#endif
  int r = table[id](p.a + p.b);
  if (names[id][0] == LETTER)
    r += 100;
  res[id] = r;
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, thr, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(res[0] == 12 && res[1] == 21 + 100);
  return 0;
}
