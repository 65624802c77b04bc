// main hands the address of its local to a thread that writes it, then
// reads it into a variable it never uses: a read-write race in C. LLVM
// deleted the unused load of the (escaped) local.
#include <pthread.h>

void *writer(void *arg) {
  *(int *)arg = 1;
  return 0;
}

int main(void) {
  int box = 0;
  pthread_t t;
  pthread_create(&t, 0, writer, &box);
  int seen = box;
  (void)seen;
  pthread_join(t, 0);
  return 0;
}
