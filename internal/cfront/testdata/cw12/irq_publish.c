// An interrupt handler registered before the device it serves is set up
// (a classic LDV race: request_irq before the driver's data is
// initialised). The handler runs in its own thread once registered and
// reads the device's buffer pointer and length.
// Default: probe initialises the device first and registers the handler
// last (a release store of the handler flag; the handler's dispatch is
// an acquire load): PASS under every model.
// -D BUG: probe registers first: the handler may read the device before
// it is set up: a race under rc11/imm, FAIL under sc and the targets.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct device {
  int *buf;
  int len;
};

static int storage[2] = {7, 7};
static struct device dev;
static atomic_int irq_registered;

static void *irq_line(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&irq_registered, memory_order_acquire)) {
    // the handler
    assert(dev.buf != 0 && dev.len == 2);
    assert(dev.buf[dev.len - 1] == 7);
  }
  return 0;
}

static void probe(void) {
#ifdef BUG
  atomic_store_explicit(&irq_registered, 1, memory_order_release);
#endif
  dev.buf = storage;
  dev.len = 2;
#ifndef BUG
  atomic_store_explicit(&irq_registered, 1, memory_order_release);
#endif
}

int main(void) {
  pthread_t irq;
  pthread_create(&irq, 0, irq_line, 0);
  probe();
  pthread_join(irq, 0);
  return 0;
}
