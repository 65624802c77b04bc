// A plain write published by a relaxed flag: the read of data races with it.
#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int flag;
void *w(void *a) { data = 1; atomic_store_explicit(&flag, 1, memory_order_relaxed); return 0; }
void *r(void *a) { if (atomic_load_explicit(&flag, memory_order_relaxed)) { atomic_store_explicit(&flag, data + 1, memory_order_relaxed); } return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, r, 0); pthread_join(a, 0); pthread_join(b, 0); return 0; }
