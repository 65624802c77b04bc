// SV-COMP pthread-ext style: a sorted singly linked list of malloc'ed
// nodes under one mutex; two threads insert two keys each, main walks
// the list after joining: four nodes, strictly increasing. PASS.
// -DBUG: the second thread inserts without the lock: an insert can be
// lost (FAIL under sc and the targets; RACE under rc11 and imm).
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
struct node {
  int key;
  struct node *next;
};
static struct node *head;
static pthread_mutex_t lk = PTHREAD_MUTEX_INITIALIZER;
static void insert(int key) {
  struct node *n = malloc(sizeof(struct node));
  n->key = key;
  struct node **pp = &head;
  while (*pp && (*pp)->key < key)
    pp = &(*pp)->next;
  n->next = *pp;
  *pp = n;
}
static void *ins_locked(void *arg) {
  int *keys = arg;
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&lk);
    insert(keys[i]);
    pthread_mutex_unlock(&lk);
  }
  return NULL;
}
static void *ins_other(void *arg) {
  int *keys = arg;
  for (int i = 0; i < 2; i++) {
#ifndef BUG
    pthread_mutex_lock(&lk);
#endif
    insert(keys[i]);
#ifndef BUG
    pthread_mutex_unlock(&lk);
#endif
  }
  return NULL;
}
int main(void) {
  static int k1[2] = {3, 1}, k2[2] = {2, 4};
  pthread_t a, b;
  pthread_create(&a, NULL, ins_locked, k1);
  pthread_create(&b, NULL, ins_other, k2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  int n = 0, last = 0;
  for (struct node *p = head; p; p = p->next) {
    assert(p->key > last);
    last = p->key;
    n++;
  }
  assert(n == 4);
  return 0;
}
