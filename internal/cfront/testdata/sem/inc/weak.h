// A header of flags_hdr.c: the macro WEAK (set with -D) weakens the
// release; the assertion sits in the header.
#include <assert.h>
#include <stdatomic.h>

#ifdef WEAK
#define ORDER memory_order_relaxed
#else
#define ORDER memory_order_release
#endif

static inline void check_data(int r, int d) {
  if (r == 1)
    assert(d == 42);
}
