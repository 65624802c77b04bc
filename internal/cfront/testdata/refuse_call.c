#include <string.h>
char s[4];
int n;
int main(void) {
  n = strlen(s);
  return 0;
}
