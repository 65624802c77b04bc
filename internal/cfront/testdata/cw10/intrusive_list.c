// An intrusive doubly linked list, Linux style: the link is a member of
// the item, and container_of (offsetof and char-pointer arithmetic)
// gets the item back from its link. Two workers insert their items at
// the head under a mutex; main walks the list after the joins and sums
// the items' values through container_of. Default: PASS everywhere.
// -D BUG: container_of subtracts the offset of the wrong member (the
// value's, not the link's): the item pointer is off and the values read
// are wrong: FAIL everywhere (no race).
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct link {
  struct link *next, *prev;
};

struct item {
  int value;
  int pad;
  struct link node;
};

#ifdef BUG
#define container_of(p, T, m) ((T *)((char *)(p)-offsetof(T, value)))
#else
#define container_of(p, T, m) ((T *)((char *)(p)-offsetof(T, m)))
#endif

static struct link head = {&head, &head};
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct item items[2] = {{.value = 3}, {.value = 4}};

static void add_head(struct link *n) {
  n->next = head.next;
  n->prev = &head;
  head.next->prev = n;
  head.next = n;
}

static void *worker(void *arg) {
  struct item *it = &items[(long)arg];
  pthread_mutex_lock(&mu);
  add_head(&it->node);
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  int sum = 0, n = 0;
  for (struct link *l = head.next; l != &head && n < 3; l = l->next, n++)
    sum += container_of(l, struct item, node)->value;
  assert(n == 2 && sum == 7);
  assert(head.prev->next == &head);
  return 0;
}
