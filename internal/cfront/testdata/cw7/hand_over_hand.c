// Hand-over-hand (lock coupling) on a sorted singly linked list with a
// mutex per node: a thread holds the lock of the node it is at and takes
// the next one's before releasing it, so two threads walking the list
// never overtake each other. Each thread adds its delta to the node with
// its key; the list is static (three nodes and a head sentinel).
// Default: PASS under every model.
// -DBUG: the walker releases the current node before locking the next
// (a window in which the other thread may pass it) and updates the
// target without holding its lock: RACE under rc11 and imm, a lost
// update (FAIL) under the others.
#include <assert.h>
#include <pthread.h>

struct node {
  int key, count;
  struct node *next;
  pthread_mutex_t m;
};
static struct node n3 = {30, 0, 0, PTHREAD_MUTEX_INITIALIZER};
static struct node n2 = {20, 0, &n3, PTHREAD_MUTEX_INITIALIZER};
static struct node n1 = {10, 0, &n2, PTHREAD_MUTEX_INITIALIZER};
static struct node sentinel = {0, 0, &n1, PTHREAD_MUTEX_INITIALIZER};

static void bump(int key, int delta) {
  struct node *cur = &sentinel;
  pthread_mutex_lock(&cur->m);
  while (cur->next && cur->key < key) {
    struct node *nx = cur->next;
#ifdef BUG
    pthread_mutex_unlock(&cur->m);
    cur = nx;
    if (cur->key >= key)
      break;
    pthread_mutex_lock(&cur->m);
#else
    pthread_mutex_lock(&nx->m);
    pthread_mutex_unlock(&cur->m);
    cur = nx;
#endif
  }
  if (cur->key == key)
    cur->count += delta;
#ifdef BUG
  if (cur->key < key)
#endif
    pthread_mutex_unlock(&cur->m);
}

static void *walker(void *arg) {
  int d = (int)(long)arg;
  bump(20, d);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, walker, (void *)1L);
  pthread_create(&b, 0, walker, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(n2.count == 3 && n1.count == 0 && n3.count == 0);
  return 0;
}
