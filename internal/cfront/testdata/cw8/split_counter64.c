// A 64-bit statistics counter kept as two 32-bit atomic halves, as 32-bit
// kernels do (u64_stats): the single writer bumps lo and carries into hi
// when lo wraps; a reader takes hi, lo, hi again and retries unless both
// hi reads agree. The counter starts at 0xFFFFFFFF (hi 0, lo all ones):
// the writer's one increment carries, and the reader must see either
// 0x00000000FFFFFFFF or 0x0000000100000000, never the torn 0 or
// 0x1FFFFFFFF. The writer writes hi before lo on a carry (so a
// reader seeing the new lo also sees the new hi) with a seq-count.
// Correct: a sequence count (odd while writing), release/acquire, and
// fences. BUG: no sequence count, hi and lo read once each (the torn
// value 0x1FFFFFFFF: hi new, lo old, is possible even under sc).
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <assert.h>

static atomic_uint seq;
static atomic_uint hi;
static atomic_uint lo = 0xFFFFFFFFu;

static void *writer(void *arg)
{
	(void)arg;
	unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
	atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	unsigned l = atomic_load_explicit(&lo, memory_order_relaxed) + 1u;
	if (l == 0)
		atomic_store_explicit(&hi, atomic_load_explicit(&hi, memory_order_relaxed) + 1u, memory_order_relaxed);
	atomic_store_explicit(&lo, l, memory_order_relaxed);
	atomic_store_explicit(&seq, s + 2, memory_order_release);
	return NULL;
}

static uint64_t read64(void)
{
#ifdef BUG
	uint32_t h = atomic_load_explicit(&hi, memory_order_acquire);
	uint32_t l = atomic_load_explicit(&lo, memory_order_acquire);
	return ((uint64_t)h << 32) | l;
#else
	for (;;) {
		unsigned s1 = atomic_load_explicit(&seq, memory_order_acquire);
		if (s1 & 1u)
			continue;
		uint32_t h = atomic_load_explicit(&hi, memory_order_relaxed);
		uint32_t l = atomic_load_explicit(&lo, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		unsigned s2 = atomic_load_explicit(&seq, memory_order_relaxed);
		if (s1 == s2)
			return ((uint64_t)h << 32) | l;
	}
#endif
}

static void *reader(void *arg)
{
	(void)arg;
	uint64_t v = read64();
	assert(v == 0xFFFFFFFFull || v == 0x100000000ull);
	return NULL;
}

int main(void)
{
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	assert(atomic_load(&hi) == 1 && atomic_load(&lo) == 0);
	return 0;
}
