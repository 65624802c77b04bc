// SV-COMP's time_var_mutex shape: a "block" flag and a "busy" flag
// protected by two mutexes; the allocator thread, holding m_inode, sets
// block and then busy (under m_busy) and checks block; the releaser
// clears block when it finds busy clear. Both take the mutexes in the
// same order (m_inode, then m_busy).
// Default: the releaser holds m_inode too: its clear cannot fall between
// the allocator's set of block and its check: PASS under every model.
// -D BUG: the releaser takes only m_busy: its clear may come after the
// allocator's set of block and before the allocator's busy: a race under
// rc11/imm, FAIL under the others.
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
  block = 1;
  if (inode == 0) {
    pthread_mutex_lock(&m_busy);
    busy = 1;
    pthread_mutex_unlock(&m_busy);
    inode = 1;
  }
  assert(block == 1);
  pthread_mutex_unlock(&m_inode);
  return 0;
}

static void *releaser(void *arg) {
  (void)arg;
#ifndef BUG
  pthread_mutex_lock(&m_inode);
#endif
  pthread_mutex_lock(&m_busy);
  if (busy == 0)
    block = 0;
  pthread_mutex_unlock(&m_busy);
#ifndef BUG
  pthread_mutex_unlock(&m_inode);
#endif
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
