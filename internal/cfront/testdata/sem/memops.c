// memcpy, memmove and memset (LLVM's intrinsics) between a thread and
// main: structs with pointers copied whole, an int array filled with a
// byte, an overlapping move, and bytes of a long.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct node {
  int key, val;
  struct node *next;
};

struct node a = {1, 2, &a}, b;
int arr[4] = {1, 2, 3, 4};
unsigned char raw[8];
long word = 0x0102030405060708L;

void *t(void *p) {
  memcpy(&b, &a, sizeof a);
  memset(arr, 0xff, 2 * sizeof(int));
  memcpy(raw, &word, sizeof word);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(b.key == 1 && b.val == 2 && b.next == &a);
  assert(arr[0] == -1 && arr[1] == -1 && arr[2] == 3);
  assert(raw[0] == 8 && raw[7] == 1);
  memmove(&arr[1], &arr[0], 3 * sizeof(int));
  assert(arr[0] == -1 && arr[1] == -1 && arr[2] == -1 && arr[3] == 3);
  return 0;
}
