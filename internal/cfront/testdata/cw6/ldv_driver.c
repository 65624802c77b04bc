// ldv-races style: a "driver" with a private struct holding a mutex and
// statistics, its operations in a const struct of function pointers
// (open/ioctl/release), an environment model that registers the device
// and runs two ioctl callers in threads through the table, then
// release. Every access to the statistics is under the device mutex.
// PASS everywhere.
// -DBUG: the ioctl's fast path bumps the "calls" counter before taking
// the mutex (as the ldv-races benchmarks' unprotected fields): RACE
// under rc11 and imm; an increment can be lost (FAIL) under sc and the
// targets.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
struct my_dev {
  pthread_mutex_t lock;
  int opened;
  int calls;
  long bytes;
};
struct dev_ops {
  int (*open)(struct my_dev *);
  long (*ioctl)(struct my_dev *, unsigned cmd, long arg);
  void (*release)(struct my_dev *);
};
static int my_open(struct my_dev *d) {
  pthread_mutex_lock(&d->lock);
  d->opened++;
  pthread_mutex_unlock(&d->lock);
  return 0;
}
static long my_ioctl(struct my_dev *d, unsigned cmd, long arg) {
#ifdef BUG
  d->calls++;
#endif
  pthread_mutex_lock(&d->lock);
#ifndef BUG
  d->calls++;
#endif
  if (cmd == 1)
    d->bytes += arg;
  pthread_mutex_unlock(&d->lock);
  return 0;
}
static void my_release(struct my_dev *d) {
  pthread_mutex_lock(&d->lock);
  d->opened--;
  pthread_mutex_unlock(&d->lock);
}
static const struct dev_ops ops = {.open = my_open, .ioctl = my_ioctl, .release = my_release};
static struct my_dev *dev;
static void *caller(void *arg) {
  long n = (long)arg;
  ops.ioctl(dev, 1, n);
  return NULL;
}
int main(void) {
  dev = malloc(sizeof *dev);
  if (!dev)
    return 0;
  pthread_mutex_init(&dev->lock, NULL);
  dev->opened = dev->calls = 0;
  dev->bytes = 0;
  ops.open(dev);
  pthread_t t1, t2;
  pthread_create(&t1, NULL, caller, (void *)3L);
  pthread_create(&t2, NULL, caller, (void *)4L);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  ops.release(dev);
  assert(dev->calls == 2 && dev->bytes == 7 && dev->opened == 0);
  pthread_mutex_destroy(&dev->lock);
  free(dev);
  return 0;
}
