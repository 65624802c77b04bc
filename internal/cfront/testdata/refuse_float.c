#include <pthread.h>
double d;
int main(void) {
  d = d * 2.5;
  return 0;
}
