package param

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestRootTuple checks rootProcs, which chooses the processes of a
// formula one at a time and skips the prefixes that falsify a literal of
// every disjunct, against rootParams, which tries every tuple: on every
// state of samples of corpus systems, for every unsafe and invariant
// formula and every guard taken as a formula, both give the same tuple
// (or none).
func TestRootTuple(t *testing.T) {
	files := []string{
		"cubicle/examples/challenges_msi.lock.cub",
		"cubicle/examples/bakery_na.cub",
		"cubicle/examples/dijkstra.cub",
		"cubicle/examples/challenges_MIS.cub",
		"cubicle/sc_german.cub",
		// unsafe ones: their samples meet the formulas
		"cubicle/examples/challenges_lynch_full.cub",
		"cubicle/brab/sc_flash_buggy.cub",
		"cubicle/sc_bakery_lamport_bogus.cub",
	}
	dir := testcorpus.Dir(t) // a missing corpus skips, or fails under CI
	total := 0
	for _, file := range files {
		sys, err := ParseFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if !explorable(sys) {
			continue
		}
		roots := append(slices.Clone(sys.Unsafe), sys.Invariants...)
		// the guards of the transitions are formulas that hold in
		// many sampled states
		for _, tr := range sys.Trans {
			roots = append(roots, &Root{Index: -1, Params: len(tr.Params), DNF: tr.Guard})
		}
		for _, n := range []int32{2, 3} {
			f := newFinite(sys, n)
			res := f.sample(nil, 1500)
			found := 0
			for _, st := range res.states {
				for _, r := range roots {
					got := f.rootProcs(st, r)
					want := rootParams(n, r, func(params []int32) bool {
						return f.dnf(st, r.DNF, &fenv{params: params}, 0)
					})
					if !slices.Equal(got, want) || (got == nil) != (want == nil) {
						t.Fatalf("%s n=%d: state %v, formula %d: rootProcs %v, rootParams %v", file, n, st, r.Index, got, want)
					}
					if got != nil {
						found++
					}
				}
			}
			t.Logf("%s n=%d: %d states, %d with a formula that holds", file, n, len(res.states), found)
			total += found
		}
	}
	if total == 0 {
		t.Errorf("no sampled state satisfies a formula: the test compares nothing but nil")
	}
}

// TestInitTuples: every tuple of pairwise distinct processes, in
// lexicographic order of positions in procs, each with its own storage.
func TestInitTuples(t *testing.T) {
	for _, tc := range []struct {
		procs []int32
		arity int
		want  [][]int32
	}{
		{[]int32{1, 2}, 0, [][]int32{{}}},
		{[]int32{}, 1, nil},
		{[]int32{3}, 2, nil},
		{[]int32{1, 2, 3}, 1, [][]int32{{1}, {2}, {3}}},
		{[]int32{1, 2, 3}, 2, [][]int32{{1, 2}, {1, 3}, {2, 1}, {2, 3}, {3, 1}, {3, 2}}},
		{[]int32{2, 5}, 2, [][]int32{{2, 5}, {5, 2}}},
	} {
		got := initTuples(tc.procs, tc.arity)
		if len(got) != len(tc.want) {
			t.Fatalf("initTuples(%v, %d) = %v, want %v", tc.procs, tc.arity, got, tc.want)
		}
		for i := range got {
			if !slices.Equal(got[i], tc.want[i]) {
				t.Fatalf("initTuples(%v, %d) = %v, want %v", tc.procs, tc.arity, got, tc.want)
			}
		}
		// appending to a tuple leaves the next one as it is
		if len(got) > 1 && tc.arity > 0 {
			next := slices.Clone(got[1])
			_ = append(got[0], 99)
			if !slices.Equal(got[1], next) {
				t.Fatalf("appending to tuple 0 changed tuple 1: %v", got[1])
			}
		}
	}
}
