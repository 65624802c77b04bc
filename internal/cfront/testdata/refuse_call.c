#include <string.h>
char s[4];
int n;
int main(void) {
  n = (int)strspn(s, "a");
  return 0;
}
