// Two threads talking through a pipe (pipe, write, read): the usual way
// to hand a message to a thread that polls file descriptors. Musket does
// not model file descriptors: it must refuse the program by name.
// Default and -D BUG (the reader expects the wrong byte; natively it
// fails every run): a named refusal under every model.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static int fds[2];

static void *reader(void *arg) {
  (void)arg;
  char c = 0;
  if (read(fds[0], &c, 1) == 1) {
#ifdef BUG
    assert(c == 'y');
#else
    assert(c == 'x');
#endif
  }
  return 0;
}

int main(void) {
  if (pipe(fds) != 0)
    return 1;
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  char c = 'x';
  write(fds[1], &c, 1);
  pthread_join(t, 0);
  return 0;
}
