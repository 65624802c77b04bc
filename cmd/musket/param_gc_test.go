package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestParamGCPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live uint64
		base int
		want int
	}{
		{0, 50, paramGCMaxPercent},
		{1 * mb, 50, paramGCMaxPercent},              // tiny heap: capped
		{paramGCHeadroom, 50, 100},                   // headroom = live
		{2 * paramGCHeadroom, 50, 50},                // headroom = live/2 = base
		{10 * paramGCHeadroom, 50, 50},               // large heap: base
		{paramGCHeadroom / 2, 50, 200},               // headroom = 2*live
		{paramGCHeadroom, 150, 150},                  // never under base
		{paramGCHeadroom / 100, 800, 800},            // base above the cap
		{3 * paramGCHeadroom, 50, 50},                // 33 % < base
		{paramGCHeadroom * 4 / 3, 50, 75},            // 75 %
		{paramGCHeadroom / 3, 50, 300},               // 300 %
		{paramGCHeadroom / 5, 50, paramGCMaxPercent}, // 500 %: capped
	} {
		if got := paramGCPercent(tc.live, tc.base); got != tc.want {
			t.Errorf("paramGCPercent(%d, %d) = %d, want %d", tc.live, tc.base, got, tc.want)
		}
	}
}

// TestParamGCFloorRestores checks that stopping the tuner leaves GOGC at
// base, however many collections ran in between.
func TestParamGCFloorRestores(t *testing.T) {
	prev := debug.SetGCPercent(50)
	defer debug.SetGCPercent(prev)
	stop := paramGCFloor(50)
	for range 3 {
		runtime.GC()
	}
	stop()
	runtime.GC() // a finalizer still armed must not change GOGC
	runtime.GC()
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("GOGC after stop = %d, want 50", got)
	}
}
