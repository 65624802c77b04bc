// An asm that is not a fence is refused with its text.
int main(void) {
  int r;
  asm volatile("rdtsc" : "=a"(r));
  return r;
}
