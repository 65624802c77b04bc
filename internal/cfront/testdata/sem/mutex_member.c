// A struct holding a mutex and a buffer copied whole by memcpy (the
// scull driver's style: a writer and a reader copy under the lock, through
// a global pointer initialised to the device). -O1 copies the two ints as
// one 8-byte access, so the object is accessed with several sizes, and
// the mutex's accesses had no size: refused as "an access of unknown
// size" under rc11. The mutex is its 4-byte lock word.
#include <pthread.h>
#include <string.h>
#include <assert.h>
struct scull_dev {
	pthread_mutex_t sem;
	int size;
	int data[2];
};
struct scull_dev dev0 = { PTHREAD_MUTEX_INITIALIZER, 0, { 0, 0 } };
struct scull_dev *devp = &dev0;
static void scull_write(struct scull_dev *d, const int *buf) {
	pthread_mutex_lock(&d->sem);
	memcpy(d->data, buf, sizeof d->data);
	d->size = 2;
	pthread_mutex_unlock(&d->sem);
}
static void scull_read(struct scull_dev *d, int *out) {
	pthread_mutex_lock(&d->sem);
	memcpy(out, d->data, sizeof d->data);
	pthread_mutex_unlock(&d->sem);
}
void *writer(void *arg) {
	int buf[2];
	buf[0] = buf[1] = (int)(long)arg;
	scull_write(devp, buf);
	return 0;
}
void *reader(void *arg) {
	int out[2];
	scull_read(devp, out);
	assert(out[0] == out[1]);
	return 0;
}
int main(void) {
	pthread_t w, r;
	pthread_create(&w, 0, writer, (void *)1L);
	pthread_create(&r, 0, reader, 0);
	pthread_join(w, 0);
	pthread_join(r, 0);
	assert(devp->size == 2 && devp->data[0] == devp->data[1]);
	return 0;
}
