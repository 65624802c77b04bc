package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// paramGCHeadroom is the least heap growth 'musket param' allows between
// two collections.
const paramGCHeadroom = 16 << 20

// paramGCMaxPercent bounds the GOGC the tuner sets on a small heap.
const paramGCMaxPercent = 400

// paramGCFloor keeps the collector of a 'musket param' run at GOGC base
// (50, for the peak of the large samples: see runParam) once the live
// heap is large, but gives a small heap at least paramGCHeadroom bytes of
// growth between two collections (GOGC at most paramGCMaxPercent). At
// GOGC 50 the runtime's smallest goal is 2 MB, so a run of a fifth of a
// second with a live heap of 10-20 MB collected every few megabytes.
// Measured on challenges_flash2_exclusive (CPU user+sys and max RSS, 10
// interleaved runs each, load about 2): GOGC 50 0.197 s and 44 MB; a
// headroom of 12 MB 0.184 s and 46 MB, 16 MB 0.186 s and 49 MB, 24 MB
// 0.182 s and 54 MB, 48 MB 0.179 s and 58 MB. The large runs keep GOGC
// 50 once their live heap passes paramGCHeadroom*100/base (32 MB), so
// their peak grows by at most paramGCHeadroom.
//
// After each collection a finalizer (re-armed on a fresh object each
// cycle) reads the live heap and sets GOGC = max(base,
// min(paramGCMaxPercent, 100*headroom/live)). Collections do not change
// what the search computes, so neither does this. The returned function
// stops the tuner and restores base.
func paramGCFloor(base int) (stop func()) {
	var mu sync.Mutex // stopped, cur, and the calls to SetGCPercent
	stopped := false
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	cur := base
	var arm func()
	tune := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		metrics.Read(sample)
		p := base
		if sample[0].Value.Kind() == metrics.KindUint64 {
			live := sample[0].Value.Uint64()
			if limit := debug.SetMemoryLimit(-1); limit >= 0 && uint64(limit) < live+4*paramGCHeadroom {
				// near a memory limit (-memory) the collector may
				// run back to back: the tuner gives up, at base
				stopped = true
				if cur != base {
					debug.SetGCPercent(base)
					cur = base
				}
				return
			}
			p = paramGCPercent(live, base)
		}
		if p != cur {
			debug.SetGCPercent(p)
			cur = p
		}
		arm()
	}
	arm = func() {
		o := new([16]byte) // large enough not to share a tiny block
		runtime.SetFinalizer(o, func(*[16]byte) { tune() })
	}
	tune()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if cur != base {
			debug.SetGCPercent(base)
		}
	}
}

// paramGCPercent is the GOGC that gives a live heap of live bytes at least
// paramGCHeadroom bytes of growth, within [base, paramGCMaxPercent].
func paramGCPercent(live uint64, base int) int {
	if live == 0 {
		return max(base, paramGCMaxPercent)
	}
	p := int(min(uint64(paramGCMaxPercent), 100*paramGCHeadroom/live))
	return max(p, base)
}
