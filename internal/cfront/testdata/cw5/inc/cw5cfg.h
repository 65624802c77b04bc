// Configuration header found through -I inc (hdr_spin.c).
#ifndef UNLOCK_MO
#define UNLOCK_MO memory_order_release
#endif
#ifndef NTHREADS
#define NTHREADS 2
#endif
