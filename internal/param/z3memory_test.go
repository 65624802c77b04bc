package param

import (
	"errors"
	"testing"

	"github.com/musket-verify/musket/internal/memlimit"
)

// TestZ3OutOfMemoryMidSearch: Z3 runs out of memory in a check of a
// search (its context already exists; the limit comes after): the check
// records the memory limit, the search stops (Verify then returns the
// error, matching memlimit.ErrExceeded), and nothing panics.
func TestZ3OutOfMemoryMidSearch(t *testing.T) {
	z := newSolver(&System{})
	defer z.close()
	prev := memlimit.Limit()
	defer memlimit.Set(prev)
	memlimit.Set(1 << 20) // Z3's smallest limit, one megabyte
	slots := make([]int32, 3000)
	for i := range slots {
		slots[i] = int32(i)
	}
	z.sat(slots, nil, nil) // thousands of pairwise distinct slots: megabytes in Z3
	memlimit.Set(prev)
	if z.failed == nil {
		t.Skip("Z3 finished the check within a megabyte: nothing to test on this Z3")
	}
	if !errors.Is(z.failed, memlimit.ErrExceeded) {
		t.Fatalf("Z3's failure %v, want the memory limit", z.failed)
	}
	z.stopped = func() bool { return z.failed != nil } // as Verify sets it
	if !z.sat(nil, nil, nil) {
		t.Errorf("a check after the failure is not the safe answer")
	}
}
