// Each thread copies a string literal into its own row of a global
// char array (memcpy from the literal: -O1 keeps it a memcpy of 8
// bytes from a select of two literals); main checks characters of both
// rows. PASS under every model (natively too). Before the literals were
// declared, Musket refused it ("mixed-size access: its parts differ
// among the objects it may access").
// -DBUG: both threads copy into row 0: row 1 stays empty (FAIL under sc
// and the targets, natively too; the copies race under rc11 and imm).
#include <pthread.h>
#include <assert.h>
#include <string.h>
char names[2][8];
void *thr(void *a) {
  int id = (int)(long)a;
#ifdef BUG
  memcpy(names[0], id ? "worker1" : "worker0", 8);
#else
  memcpy(names[id], id ? "worker1" : "worker0", 8);
#endif
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], 0, thr, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(names[1][6] == '1' && names[1][0] == 'w');
#ifndef BUG
  assert(names[0][6] == '0');
#endif
  return 0;
}
