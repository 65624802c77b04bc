// An _Atomic struct of two ints is loaded and stored whole (one 8-byte
// atomic access), never torn. Its initialiser's two fields are no
// accesses: they used to cut the object into two parts, so that the
// whole load could read one field's initial value and the other field
// from the thread's store (UNSUPPORTED under every model but AArch64's).
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>
struct pair { int a, b; };
_Atomic struct pair p = (struct pair){ 2, 3 };
void *thr(void *arg) {
	struct pair v = { 1, 1 };
	atomic_store(&p, v);
	return 0;
}
int main(void) {
	pthread_t t;
	struct pair r0 = atomic_load(&p);
	assert(r0.a == 2 && r0.b == 3);
	pthread_create(&t, 0, thr, 0);
	struct pair r = atomic_load(&p);
	assert(r.a == r.b || (r.a == 2 && r.b == 3));
	pthread_join(t, 0);
	return 0;
}
