package enum

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/symexec"
)

// TestValueCycle: LB with data dependencies (P0: r0 = x; y = r0, P1:
// r1 = y; x = r1) has its reads-from choice cut when both reads read the
// other thread's write, a value out of thin air, and only then.
func TestValueCycle(t *testing.T) {
	// Events: 0 init x, 1 init y, 2 P0 R x, 3 P0 W y, 4 P1 R y, 5 P1 W x.
	zero := symexec.Const(prog.IntValue(0))
	c := &combo{
		base:   []int{2, 4},
		thread: []int{-1, -1, 0, 0, 1, 1},
		syms:   []*sym{zero, zero, symexec.ReadOf(0), symexec.ReadOf(0), symexec.ReadOf(0), symexec.ReadOf(0)},
		reads:  []int{2, 4},
	}
	for _, tc := range []struct {
		rf    []int
		n     int
		cycle bool
	}{
		{[]int{5, 3}, 2, true},
		{[]int{5, 1}, 2, false},
		{[]int{0, 3}, 2, false},
		{[]int{5, 3}, 1, false}, // P1's read not chosen yet
	} {
		if got := c.valueCycle(tc.rf, tc.n); got != tc.cycle {
			t.Errorf("rf %v (first %d): cycle %v, want %v", tc.rf, tc.n, got, tc.cycle)
		}
	}
}

// TestPointerChase: a stack of array cells whose addresses are read from
// memory and offset (top + 1), as in the kernel's lockfree/aba-array,
// takes a few paths per thread (each path forks once over the locations
// a pointer may have, then follows it), within a limit of 16 paths that
// forking at every access over every location exceeded.
func TestPointerChase(t *testing.T) {
	testcorpus.Dir(t)
	m, fe := lkmm(t, nil)
	src, err := os.ReadFile(filepath.Join("testdata", "ptr-chase.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.ParseWith("ptr-chase.litmus", src, fe)
	if err != nil {
		t.Fatal(err)
	}
	r := Run(context.Background(), lt, m, "lkmm", Options{Variants: map[string]bool{"lkmmv2": true}, TagNames: fe.Tags(), MaxPaths: 16})
	if r.Status != result.Done {
		t.Fatalf("status %s: %v", r.Status, r.Err)
	}
	want := "0:next=-1;0:value=1; 0:next=-1;0:value=2; 0:next=-1;0:value=99; 0:next=b;0:value=1;"
	if !r.Ok() || states(r) != want {
		t.Errorf("Ok %v, states %s; want Ok, %s", r.Ok(), states(r), want)
	}
}
