// Locations of every kind, for the names witnesses give them in C terms:
// an array of structs, an array, a two-dimensional array, a union, a
// static local, a local whose address a thread gets. P2 reads grid[1][2]
// and pool[1].next after a relaxed flag: data races with P1's writes.
#include <pthread.h>
#include <stdatomic.h>

struct node {
  int val;
  struct node *next;
};
struct node pool[3];
int arr[4];
int grid[2][3];
union {
  int i;
  short s[2];
} u;
atomic_int flag;
int seen;

void *writer(void *a) {
  static int calls;
  calls++;
  pool[1].next = &pool[2];
  grid[1][2] = 7;
  arr[3] = 1;
  u.i = 5;
  *(int *)a = 3;
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  return 0;
}

void *reader(void *a) {
  if (atomic_load_explicit(&flag, memory_order_relaxed))
    seen = grid[1][2] + (pool[1].next != 0);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int local = 0;
  pthread_create(&t1, 0, writer, &local);
  pthread_create(&t2, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return local == 3 ? 0 : 1;
}
