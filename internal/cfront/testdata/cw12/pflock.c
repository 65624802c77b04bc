// A phase-fair reader-writer lock in the style of ck_pflock (Brandenburg
// and Anderson's PF-T lock): readers add to rin and wait while a writer's
// phase bits are in rin; a writer takes a ticket (win), waits for the
// writers before it (wout), adds its phase bits to rin, and waits until
// every reader that came in before it has left (rout reaches the count
// rin had). The reader reads a two-field record the writer updates.
// Default: PASS under every model.
// -D BUG: the reader does not wait while the writer's phase bits are
// set: it may read the record during the writer's update: a race under
// rc11/imm, FAIL under sc, x86, aarch64, power, riscv.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define RINC 0x100u   // one reader
#define WBITS 0x3u    // writer present and phase
#define PRES 0x2u
#define PHID 0x1u
#define RMASK 0xffffff00u

static atomic_uint rin, rout, win, wout;
static int x, y;

static void read_lock(void) {
  unsigned w = atomic_fetch_add_explicit(&rin, RINC, memory_order_acquire) & WBITS;
#ifndef BUG
  if (w) {
    while ((atomic_load_explicit(&rin, memory_order_acquire) & WBITS) == w)
      ;
  }
#else
  (void)w;
#endif
}

static void read_unlock(void) { atomic_fetch_add_explicit(&rout, RINC, memory_order_release); }

static void write_lock(void) {
  unsigned ticket = atomic_fetch_add_explicit(&win, 1, memory_order_relaxed);
  while (atomic_load_explicit(&wout, memory_order_acquire) != ticket)
    ;
  unsigned bits = PRES | (ticket & PHID);
  unsigned ticket_r = atomic_fetch_add_explicit(&rin, bits, memory_order_acq_rel) & RMASK;
  while (atomic_load_explicit(&rout, memory_order_acquire) != ticket_r)
    ;
}

static void write_unlock(void) {
  atomic_fetch_and_explicit(&rin, RMASK, memory_order_release);
  atomic_fetch_add_explicit(&wout, 1, memory_order_release);
}

static void *reader(void *arg) {
  (void)arg;
  read_lock();
  int a = x, b = y;
  read_unlock();
  assert(a == b);
  return 0;
}

static void *writer(void *arg) {
  (void)arg;
  write_lock();
  x = 1;
  y = 1;
  write_unlock();
  return 0;
}

int main(void) {
  pthread_t r, w;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
