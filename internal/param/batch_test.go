package param

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// growOneByOne is grow as it was before the batches (expand, addBatch):
// each state's successors are made and added before the next state is
// expanded. TestBatchedGrow compares the two.
func (x *sampler) growOneByOne(limit int) {
	if !x.started {
		x.started = true
		var inits [][]int64
		if x.abstract {
			inits = x.absInitial()
		} else {
			inits = x.fin.initials(func(int) int64 { return 0 })
		}
		for _, s := range inits {
			if x.count() >= limit || x.unsafe {
				return
			}
			x.add(s, -1, forwardStep{})
		}
	}
	var next []successor
	for ; x.next < x.count(); x.next++ {
		if x.unsafe || x.count() >= limit {
			return
		}
		cur := x.state(x.next, x.rowBuf)
		x.rowBuf = cur
		if x.abstract {
			if !x.absTried {
				x.absTried, x.abs = true, compileAbs(x)
			}
			x.scr = x.scr[:0]
			next = x.compiledAbsSuccessors(x.abs, cur, next[:0])
		} else {
			x.fin.scratch = true
			next = x.fin.successors(cur, next[:0])
			x.fin.scratch = false
		}
		for _, s := range next {
			if x.count() >= limit {
				return
			}
			x.add(s.st, x.next, s.step)
			if x.unsafe {
				return
			}
		}
	}
	x.res.complete = true
}

// TestBatchedGrow checks that the batches of grow (expand, touch,
// addBatch) change nothing: samples of corpus systems, exact and
// abstract, with the deep phase's symmetry and without, grown in steps
// that stop in the middle of states' successors, have the same states
// in the same order, parents and steps, the same next state to expand,
// the same completeness and the same unsafe state as when each state's
// successors are added before the next state is expanded.
func TestBatchedGrow(t *testing.T) {
	for _, tc := range []struct {
		name     string
		abstract bool
		n        int32
	}{
		{"sc_german.cub", false, 3},
		{"sc_mutex.cub", false, 3},
		{"sc_futurebus.cub", false, 2},
		{"examples/challenges_flash2_nodata.cub", false, 2},
		{"examples/challenges_flash2_exclusive.cub", true, 2},
		{"examples/challenges_flash2.cub", true, 2},
	} {
		sys, err := ParseFile(filepath.Join(testcorpus.Dir(t), "cubicle", tc.name))
		if err != nil {
			t.Fatal(err)
		}
		for _, deep := range []bool{false, true} {
			a := &approximator{abstract: tc.abstract, deep: deep}
			x, y := a.newSampler(newFinite(sys, tc.n)), a.newSampler(newFinite(sys, tc.n))
			for limit := 1; limit < 6000 && !x.res.complete && !x.unsafe; limit += 1 + limit/3 {
				x.grow(nil, limit)
				y.growOneByOne(limit)
				if x.count() != y.count() || x.next != y.next || x.res.complete != y.res.complete || x.unsafe != y.unsafe {
					t.Fatalf("%s deep %v limit %d: %d states, next %d, complete %v, unsafe %v; one by one %d, %d, %v, %v",
						tc.name, deep, limit, x.count(), x.next, x.res.complete, x.unsafe, y.count(), y.next, y.res.complete, y.unsafe)
				}
			}
			if !slices.Equal(x.res.parent, y.res.parent) || !slices.Equal(x.perm, y.perm) || !slices.EqualFunc(x.rows(), y.rows(), slices.Equal[[]int64]) {
				t.Fatalf("%s deep %v: the batched sample differs", tc.name, deep)
			}
			for i := range x.count() {
				if a, b := x.step(i), y.step(i); a.t != b.t || !slices.Equal(a.args, b.args) {
					t.Fatalf("%s deep %v: state %d made by another step", tc.name, deep, i)
				}
			}
			if x.unsafe && (x.errRoot != y.errRoot || !slices.Equal(x.errProcs, y.errProcs) || len(x.errPath) != len(y.errPath)) {
				t.Fatalf("%s deep %v: another unsafe state", tc.name, deep)
			}
			t.Logf("%s deep %v: %d states, complete %v, unsafe %v", tc.name, deep, x.count(), x.res.complete, x.unsafe)
		}
	}
}
