#include <stdlib.h>
int *p;
int main(void) {
  p = malloc(sizeof(int));
  return 0;
}
