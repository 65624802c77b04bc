package cfront

import (
	"context"
	"path/filepath"
	"testing"
)

// TestLatchesUnrollOnce checks that a loop whose back edge leaves an
// inner loop (rwlock.c's read_lock: a CAS loop inside a reload loop) is
// unrolled as one loop: the lowered program grows with the bound as
// nested loops do (the square of the bound), not exponentially as when
// each copied back edge was unrolled as a loop of its own (bound 5: 15689
// events; bound 6: refused as longer than 2^18 instructions). Its
// verdicts at several bounds are in TestWild4, and compared with the SMT
// engine there (MUSKET_LONG=1).
func TestLatchesUnrollOnce(t *testing.T) {
	needClang(t)
	path := filepath.Join("testdata", "cw4", "rwlock.c")
	size := map[int]int{}
	for _, k := range []int{3, 6} {
		p, err := Lower(context.Background(), path, Options{Bound: k})
		if err != nil {
			t.Fatalf("bound %d: %v", k, err)
		}
		for _, th := range p.Test.Threads {
			size[k] += len(th.Code)
		}
	}
	// (6/3)^2 = 4 for the nested loops, with room for the straight code.
	if size[6] > 5*size[3] {
		t.Errorf("lowered program: %d instructions at bound 3, %d at bound 6: more than nested loops make", size[3], size[6])
	}
	t.Logf("instructions: bound 3 %d, bound 6 %d", size[3], size[6])
}
