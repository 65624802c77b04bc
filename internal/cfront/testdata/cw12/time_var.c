// SV-COMP's time_var_mutex shape: a "block" flag and a "busy" flag
// protected by two mutexes; the allocator thread sets busy and block
// under m_busy and m_inode, the releaser waits for busy and clears block
// only when no one holds the inode; an assertion checks that block is
// never cleared while busy is set by the other side.
// Default: PASS under every model.
// -D BUG: the releaser clears block without taking m_inode: its clear
// may fall between the allocator's set of block and its check: a race
// under rc11/imm, FAIL under the others.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m_inode = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m_busy = PTHREAD_MUTEX_INITIALIZER;
static int block;
static int busy;
static int inode;

static void *allocator(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m_inode);
  if (inode == 0) {
    pthread_mutex_lock(&m_busy);
    busy = 1;
    pthread_mutex_unlock(&m_busy);
    inode = 1;
  }
  block = 1;
  assert(block == 1);
  pthread_mutex_unlock(&m_inode);
  return 0;
}

static void *releaser(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m_busy);
  if (busy == 0) {
#ifdef BUG
    block = 0;
#else
    pthread_mutex_lock(&m_inode);
    block = 0;
    pthread_mutex_unlock(&m_inode);
#endif
  }
  pthread_mutex_unlock(&m_busy);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, allocator, 0);
  pthread_create(&b, 0, releaser, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
