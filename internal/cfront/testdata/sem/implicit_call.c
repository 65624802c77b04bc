/* A call of a function the program neither declares before the call
   nor defines: clang declares it implicitly and calls it through a cast,
   which Musket must name as a call to an undefined function, not as a
   call through a function pointer. */
int x;

int main(void) {
  x = 1;
  check_value(x);
  return 0;
}
