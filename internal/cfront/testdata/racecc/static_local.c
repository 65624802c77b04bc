// A static global written and read back by two threads running the same
// function: a write-write race in C. LLVM's GlobalOpt made it a local of
// the function (it is internal and used by one function only).
#include <pthread.h>
#include <assert.h>

static int shared;

void *set(void *arg) {
  shared = (int)(long)arg;
  assert(shared == (int)(long)arg);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, set, (void *)1);
  pthread_create(&b, 0, set, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
