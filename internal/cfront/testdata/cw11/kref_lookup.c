// Reference counting with a lookup that may race with the last put (the
// kernel's kref_get_unless_zero): a cache holds a pointer to an object
// under a mutex; a lookup takes the mutex, and takes a reference only if
// the count is not already 0 (a CAS loop). The last put (fetch_sub,
// release; then an acquire fence) removes the object from the cache under
// the mutex and frees it. The creator drops its reference while a reader
// looks up and uses the object.
// Default: PASS under every model.
// -D BUG: the lookup takes its reference with a plain fetch_add, even
// from 0: it may resurrect an object whose last put has already decided
// to free it: a use after free, FAIL under every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct obj { atomic_int ref; int data; };
static struct obj *cache;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static int get_unless_zero(struct obj *o) {
#ifdef BUG
  atomic_fetch_add_explicit(&o->ref, 1, memory_order_relaxed);
  return 1;
#else
  int c = atomic_load_explicit(&o->ref, memory_order_relaxed);
  while (c != 0)
    if (atomic_compare_exchange_weak_explicit(&o->ref, &c, c + 1, memory_order_relaxed,
                                              memory_order_relaxed))
      return 1;
  return 0;
#endif
}

static void put(struct obj *o) {
  if (atomic_fetch_sub_explicit(&o->ref, 1, memory_order_release) == 1) {
    atomic_thread_fence(memory_order_acquire);
    pthread_mutex_lock(&cache_lock);
    if (cache == o)
      cache = NULL;
    pthread_mutex_unlock(&cache_lock);
    free(o);
  }
}

static void *reader(void *arg) {
  (void)arg;
  pthread_mutex_lock(&cache_lock);
  struct obj *o = cache;
  if (o && !get_unless_zero(o))
    o = NULL;
  pthread_mutex_unlock(&cache_lock);
  if (o) {
    assert(o->data == 9);
    put(o);
  }
  return 0;
}

int main(void) {
  struct obj *o = malloc(sizeof *o);
  atomic_init(&o->ref, 1);
  o->data = 9;
  cache = o;
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  put(o);
  pthread_join(t, 0);
  return 0;
}
