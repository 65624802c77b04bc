// A character device in the style of LDV's and SV-COMP's scull driver
// models: open, read and write of a device whose data and size are
// guarded by the device's mutex; two "processes" (threads) write and
// read concurrently after module init, and module exit runs after both.
// Default: every access to the device's data is under its mutex: PASS
// under every model (a read sees 0 or both bytes of the write).
// -D BUG: read checks size without the mutex (a "fast path"): a race
// under rc11/imm; sc and x86 PASS (a size of 2 read means the data were
// written before it, in the one order of memory); aarch64, power, riscv
// FAIL (the data's loads may be satisfied before the size's).
// Default under rc11 and imm: clang-14 turns the locked copy loop into a
// memcpy of the length read from size: refused by name (a copy of a
// length known only at run time).
#include <assert.h>
#include <pthread.h>

struct scull_dev {
  pthread_mutex_t lock;
  char data[4];
  int size;
  int opened;
};

static struct scull_dev dev;

static int scull_open(struct scull_dev *d) {
  pthread_mutex_lock(&d->lock);
  d->opened++;
  pthread_mutex_unlock(&d->lock);
  return 0;
}

static int scull_write(struct scull_dev *d, const char *buf, int n) {
  pthread_mutex_lock(&d->lock);
  for (int i = 0; i < n; i++)
    d->data[i] = buf[i];
  d->size = n;
  pthread_mutex_unlock(&d->lock);
  return n;
}

static int scull_read(struct scull_dev *d, char *buf) {
#ifdef BUG
  if (d->size == 0)
    return 0;
  for (int i = 0; i < 2; i++)
    buf[i] = d->data[i];
  return d->size;
#else
  pthread_mutex_lock(&d->lock);
  int n = d->size;
  for (int i = 0; i < n; i++)
    buf[i] = d->data[i];
  pthread_mutex_unlock(&d->lock);
  return n;
#endif
}

static void *writer(void *arg) {
  (void)arg;
  scull_open(&dev);
  scull_write(&dev, "ok", 2);
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  char buf[4] = {0};
  scull_open(&dev);
  int n = scull_read(&dev, buf);
  assert(n == 0 || (buf[0] == 'o' && buf[1] == 'k'));
  return 0;
}

int main(void) {
  pthread_mutex_init(&dev.lock, 0);
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  assert(dev.opened == 2);
  pthread_mutex_destroy(&dev.lock);
  return 0;
}
