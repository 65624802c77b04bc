/* A null pointer's field written: an invalid memory access in every
   execution (the graph engine answered PASS before: it gave the address,
   4, a location of its own). */
struct n {int a, b;};
static struct n *volatile p;
int main(void) { p->b = 1; return 0; }
