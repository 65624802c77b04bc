// A wait on a plain flag with races checked: -O1 (which may assume no
// race then) hoists the flag's load out of the loop into its preheader.
// The race report must name the lines of the two accesses as written:
// the write of flag (line 13) and its read in the loop (line 20), not
// the line before the loop the hoisted load was given.
#include <pthread.h>

int flag, data;

void *setter(void *arg) {
  (void)arg;
  data = 1;
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  while (flag == 0) {
  }
  pthread_join(t, 0);
  return data - 1;
}
