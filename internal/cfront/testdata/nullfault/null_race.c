/* A plain pointer read racing with its publication, then a write through
   it: a data race under rc11 and imm (reported first), an invalid memory
   access under sc and the hardware targets. */
#include <pthread.h>
struct n {int a, b;};
static struct n node = {1, 2};
static struct n *p;
static void *t(void *x) { p = &node; return 0; }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  p->b = 3;
  pthread_join(th, 0);
  return 0;
}
